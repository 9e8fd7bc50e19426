"""Shared fixtures: an isolated environment, a local OpenAI-compatible stub, engines and models."""

from __future__ import annotations

import os

import pytest

from groundset.core import CallEngine, RetryPolicy, set_engine

from .corpora import SHARED
from .openai_stub import StubServer

FAKE_KEY = "sk-groundset-FAKE-KEY-5f1c9a7e2b"

# These modules run on the real corpora in ../shared/corpora (present in CI, beside the checkout).
# On a machine without them they are left out, loudly, rather than failing at import.
NEEDS_SHARED_CORPORA = [
    "test_end_to_end.py",
    "test_generate.py",
    "test_kg_build.py",
    "test_kg_update.py",
    "test_kg_loader.py",
    "test_kg_offline_nlp.py",
    "test_markdown_corpora.py",
    "test_offline_questions.py",
    "test_offline_testset_quality.py",
    "test_personas.py",
    "test_refresh.py",
    "test_testset_patterns.py",
]
collect_ignore = [] if SHARED.is_dir() else NEEDS_SHARED_CORPORA


def pytest_report_header(config):
    if collect_ignore:
        return f"shared corpora not found at {SHARED}: skipping {', '.join(collect_ignore)}"
    return f"shared corpora: {SHARED}"


def pytest_terminal_summary(terminalreporter):
    """Say it again at the end, where -q still prints: a green run must say what it did not run."""
    if collect_ignore:
        terminalreporter.write_line(
            f"NOT RUN: {len(collect_ignore)} test modules need the shared corpora, not found at {SHARED}: "
            + ", ".join(collect_ignore),
            yellow=True,
            bold=True,
        )


def pytest_collection_modifyitems(config, items):
    """The real_model tier first: it is the longest part of the run (~12 minutes through a 135M model on
    2 cores), one module and so one worker under ``--dist loadscope``, and it must start at once while
    the other workers take the rest; queued behind the rest it would run alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("real_model") is None)


_YIELDED = False  # this worker has lowered its priority (once: os.nice adds up)


def pytest_runtest_setup(item):
    """Under pytest-xdist, a worker running the rest of the suite yields the CPU to the real_model tier:
    the tier is the run's critical path, and its llama.cpp threads wait on each other at every layer:
    beside a worker at nice 10 they evaluated prompts at 66 instead of 87 tokens/s and generated at 26
    instead of 47, while the suite's tests can use any spare moment."""
    global _YIELDED
    if not _YIELDED and os.environ.get("PYTEST_XDIST_WORKER") and not item.get_closest_marker("real_model"):
        _YIELDED = True
        os.nice(19)


_ISOLATE = (
    "GROUNDSET_LLM",
    "GROUNDSET_EMBEDDINGS",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "LANGSMITH_TRACING",
    "LANGCHAIN_TRACING_V2",
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory, monkeypatch):
    """No user config leaks in, the default cache lives in a temp dir, the default engine is fresh."""
    for name in _ISOLATE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GROUNDSET_CACHE_DIR", str(tmp_path_factory.mktemp("default-cache")))
    set_engine(None)
    yield
    set_engine(None)


@pytest.fixture(scope="session")
def prometheus_graph():
    """The offline graph of the whole shared Prometheus folder, built once per run (tests only read it)."""
    from groundset.kg import build_knowledge_graph

    from .corpora import PROMETHEUS_DOCS

    return build_knowledge_graph(PROMETHEUS_DOCS, engine=CallEngine(cache=False)).kg


@pytest.fixture(scope="session")
def stub_server():
    with StubServer() as server:
        yield server


@pytest.fixture
def stub(stub_server):
    """The session's stub server, reset to default behaviour for each test."""
    stub_server.reset()
    yield stub_server
    stub_server.reset()


@pytest.fixture
def engine(tmp_path):
    """An engine with its own cache dir and fast retries."""
    return CallEngine(cache=tmp_path / "cache", retry=RetryPolicy(max_retries=2, base_delay=0.01), timeout=10)


@pytest.fixture
def chat(stub):
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(base_url=stub.base_url, api_key=FAKE_KEY, model="stub-model", max_retries=0)


@pytest.fixture
def openai_embeddings(stub):
    from langchain_openai import OpenAIEmbeddings

    return OpenAIEmbeddings(
        base_url=stub.base_url,
        api_key=FAKE_KEY,
        model="stub-embed",
        max_retries=0,
        check_embedding_ctx_length=False,
    )
