"""Where per-text work runs (issue 32): the local backend and Ray give the same graph, fingerprint for
fingerprint, because each batch is a pure function of its texts and the corpus-wide model is merged from
the batches in order; and scoring on Ray gives the local scores, its workers sharing the run's call cache
and rate limit. The Ray tests start a local Ray with 2 CPUs; without the ``ray`` extra they are
skipped, with the reason, and GROUNDSET_REQUIRE_RAY=1 (CI) turns that skip into a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import CallEngine, ConfigError
from groundset.core.backends import LocalBackend, get_backend
from groundset.core.ray_calls import TokenBucket
from groundset.kg import build_knowledge_graph
from groundset.kg.persistence import load_graph
from groundset.kg.similarity import similar_pairs
from groundset.samples.dataset import EvaluationDataset
from groundset.scoring import EvaluationResult, evaluate, score_rag
from groundset.text.phrases import PhraseModel

from .conftest import FAKE_KEY
from .corpora import SHARED, copy_example_pages

PAGES = ("concepts/data_model.md", "concepts/jobs_instances.md", "practices/naming.md",
         "practices/alerting.md", "introduction/overview.md")  # fmt: skip
HANDBOOK = SHARED / "handbook" / "docs"


def test_local_batches_run_in_order_and_a_bad_size_or_name_is_refused():
    backend = LocalBackend(batch_items=3)
    assert backend.map_batches(lambda batch: [x * 2 for x in batch], list(range(7))) == [
        [0, 2, 4],
        [6, 8, 10],
        [12],
    ]
    assert backend.map_batches(len, []) == []
    heard: list[int] = []  # a long stage's bar moves as each batch is done
    assert backend.map_batches(sum, list(range(7)), progress=heard.append) == [3, 12, 6] and heard == [
        3,
        3,
        1,
    ]
    with pytest.raises(ConfigError, match="batch_items"):
        LocalBackend(batch_items=0)
    with pytest.raises(ConfigError, match="unknown backend 'spark'"):
        get_backend("spark")
    with pytest.raises(ConfigError, match="--ray-address needs --backend ray"):
        get_backend("local", address="ray://head:10001")


def test_a_phrase_model_fitted_in_batches_is_the_one_fitted_at_once():
    """The batches' candidates and verb counts merge into the same vocabulary, counts and ranking."""
    texts = [path.read_text(encoding="utf-8") for path in sorted(HANDBOOK.rglob("*.md"))[:60]]
    whole = PhraseModel().fit_rank(texts, "en", keyphrases=6, themes=4)
    batched = PhraseModel().fit_rank(
        texts, "en", keyphrases=6, themes=4, map_batches=LocalBackend(batch_items=7).map_batches
    )
    assert batched == whole and any(whole[0])


def test_a_local_build_in_small_batches_has_the_same_fingerprint(tmp_path):
    docs = copy_pages(tmp_path)
    once = build_knowledge_graph(docs, engine=CallEngine(cache=False)).kg
    batched = build_knowledge_graph(
        docs, engine=CallEngine(cache=False), backend=LocalBackend(batch_items=5)
    ).kg
    assert batched.fingerprint() == once.fingerprint()


def ivf_input(n: int = 3000, dims: int = 24) -> np.ndarray:
    """Clustered vectors, so the IVF lists hold neighbours worth finding."""
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((40, dims))
    return (centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, dims))).astype(np.float32)


def test_similarity_lists_searched_in_partitions_give_the_same_pairs(monkeypatch):
    """The IVF lists are partitions of the similarity search; however they are batched, and however often
    a partition keeps only each query's k best as it goes, the pairs are the ones one process finds."""
    from groundset.kg import similarity

    vectors = ivf_input()
    whole = similar_pairs(vectors, k=5, threshold=0.6, exact_below=100)
    parted = similar_pairs(
        vectors, k=5, threshold=0.6, exact_below=100, map_batches=LocalBackend(batch_items=4).map_batches
    )
    assert parted == whole and len(whole) > 3000
    monkeypatch.setattr(similarity, "MERGE_ENTRIES", 50)
    assert similar_pairs(vectors, k=5, threshold=0.6, exact_below=100) == whole


def test_overlap_row_blocks_scored_in_partitions_give_the_same_pairs(monkeypatch):
    """Each row block of the overlap index is a partition; batched one block a task, the pairs are the
    ones one process finds."""
    from groundset.kg import overlap

    texts = [path.read_text(encoding="utf-8") for path in sorted(HANDBOOK.rglob("*.md"))[:80]]
    items = [sorted({w.strip(".,:;()*`#").casefold() for w in t.split() if len(w) > 6}) for t in texts]
    monkeypatch.setattr(overlap, "BLOCK_ROWS", 7)  # a dozen blocks
    whole = overlap.overlap_pairs(items, max_df=0.5, max_pairs_per_node=5)
    parted = overlap.overlap_pairs(
        items, max_df=0.5, max_pairs_per_node=5, map_batches=LocalBackend(batch_items=1).map_batches
    )
    assert parted == whole and len(whole) > 100


def copy_pages(root):
    return copy_example_pages(root, PAGES)


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[object]:
    try:
        import ray
    except ImportError:
        if os.environ.get("GROUNDSET_REQUIRE_RAY") == "1":
            pytest.fail("the Ray tests must run here: ray is not installed (pip install -e '.[ray]')")
        pytest.skip("ray is not installed (pip install -e '.[ray]')")
    from groundset.core.backends import RayBackend

    backend = RayBackend(num_cpus=2, batch_items=5)  # several tasks even for a few pages
    try:
        yield backend
    finally:
        ray.shutdown()


def test_a_build_on_ray_is_the_local_build(ray_backend, tmp_path):
    docs = copy_pages(tmp_path)
    local = build_knowledge_graph(docs, engine=CallEngine(cache=False)).kg
    on_ray = build_knowledge_graph(docs, engine=CallEngine(cache=False), backend=ray_backend).kg
    assert on_ray.fingerprint() == local.fingerprint()
    assert len(local.nodes()) > len(PAGES)


def test_ray_batches_report_their_progress_as_they_finish(ray_backend):
    heard: list[int] = []
    total = lambda batch: sum(batch)  # noqa: E731 - a function Ray can ship by value
    # 12 items on 2 CPUs: two tasks a CPU, of 3 items each
    assert ray_backend.map_batches(total, list(range(12)), progress=heard.append) == [3, 12, 21, 30]
    assert heard == [3, 3, 3, 3]


def test_similarity_partitions_searched_on_ray_are_the_local_ones(ray_backend):
    vectors = ivf_input()
    local = similar_pairs(vectors, k=5, threshold=0.6, exact_below=100)
    assert (
        similar_pairs(vectors, k=5, threshold=0.6, exact_below=100, map_batches=ray_backend.map_batches)
        == local
    )


def test_kg_build_backend_ray_from_the_command_line(ray_backend, tmp_path, capsys):
    """`kg build --backend ray` uses the Ray this process already runs (as it would a cluster's)."""
    docs = copy_pages(tmp_path)
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "local"), "-q"]) == 0
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "ray"), "--backend", "ray", "-q"]) == 0
    assert load_graph(tmp_path / "ray").fingerprint() == load_graph(tmp_path / "local").fingerprint()
    assert "per-text work ran on Ray on this machine, 2 CPUs" in capsys.readouterr().out
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "x"), "--ray-address", "auto", "-q"]) == 1
    assert "--ray-address needs --backend ray" in capsys.readouterr().err


# -- scoring on Ray: the local scores, one call cache and one rate limit for every worker ------------------
def scoring_rows(n: int) -> EvaluationDataset:
    return EvaluationDataset.from_list(
        [
            {
                "user_input": f"What does the exporter on port {9100 + i} expose?",
                "response": f"The exporter on port {9100 + i} exposes host metrics. It runs on every node.",
                "retrieved_contexts": [
                    f"Port {9100 + i} serves the host exporter's metrics.",
                    "Rules fire alerts.",
                ],
                "reference": f"It exposes host metrics on port {9100 + i}.",
            }
            for i in range(n)
        ]
    )


def cell_values(result) -> list[list[tuple[str, str, str]]]:
    """Each row's (metric, value, error); the value's repr, so that NaN equals NaN."""
    return [
        [(name, repr(cell.value), cell.error) for name, cell in sorted(row.items())] for row in result.cells
    ]


def test_turns_under_a_shared_rate_limit_are_spaced_by_it():
    now = [100.0]
    bucket = TokenBucket(4.0, clock=lambda: now[0])  # 4 a second: a burst of 4, then one each 0.25 s
    assert [bucket.reserve() for _ in range(6)] == [0.0, 0.0, 0.0, 0.0, 0.25, 0.5]
    now[0] += 10  # after a quiet spell the burst is back, and no more than it
    assert [bucket.reserve() for _ in range(5)] == [0.0, 0.0, 0.0, 0.0, 0.25]
    with pytest.raises(ValueError, match="requests_per_second"):
        TokenBucket(0)


def test_a_model_goes_to_the_workers_as_settings_without_its_key(monkeypatch):
    from langchain_openai import ChatOpenAI

    from groundset.core.ray_calls import _settings, rebuilt_model

    chat = ChatOpenAI(model="judge-1", temperature=0.0, base_url="http://127.0.0.1:9/v1", api_key=FAKE_KEY)
    shipped = _settings(chat)
    assert FAKE_KEY not in repr(shipped) and shipped[2] == ["openai_api_key"]
    assert shipped[1]["model_name"] == "judge-1" and shipped[1]["temperature"] == 0.0
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)  # the worker's own environment gives the key
    again = rebuilt_model(shipped)
    assert again.model_name == "judge-1" and again.openai_api_base == "http://127.0.0.1:9/v1"
    assert again.openai_api_key.get_secret_value() == FAKE_KEY
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ConfigError, match="openai_api_key left out.*set the model's key variable"):
        rebuilt_model(shipped)
    local = ChatOpenAI(model="judge-1", base_url="http://127.0.0.1:9/v1", api_key="not-needed")
    assert rebuilt_model(_settings(local)).openai_api_key.get_secret_value() == "not-needed"


def test_scoring_on_ray_gives_the_local_scores_with_one_cache_and_one_rate(
    ray_backend, stub, tmp_path, monkeypatch
):
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)  # a local server: the model needs no key
    data = scoring_rows(8)
    options = {"llm": "openai:stub-model", "embeddings": "offline", "show_progress": False}
    local = evaluate(data, engine=CallEngine(cache=tmp_path / "local"), **options)
    asked_here = len(stub.chat_requests)
    stub.reset()
    rate = 10.0
    engine = CallEngine(cache=tmp_path / "shared", requests_per_second=rate)
    on_ray = evaluate(data, engine=engine, backend=ray_backend, **options)
    assert cell_values(on_ray) == cell_values(local) and asked_here > 8
    sent = sorted(request.received_at for request in stub.chat_requests)
    assert len(sent) == asked_here  # the metrics of a sample share their calls in its worker, as here
    for i, start in enumerate(sent):  # all workers together keep the run's limit: a burst, then the rate
        assert sum(1 for t in sent[i:] if t < start + 1.0) <= 2 * rate
    calls = sum(usage["calls"] for usage in on_ray.usage.values())
    assert calls == len(sent)
    stub.reset()  # the answers the workers paid for are in this run's cache: a second run pays nothing
    again = evaluate(data, engine=CallEngine(cache=tmp_path / "shared"), backend=ray_backend, **options)
    assert cell_values(again) == cell_values(local) and stub.chat_requests == []
    assert sum(usage["cache_hits"] for usage in again.usage.values()) >= asked_here


def test_evaluate_backend_ray_from_the_command_line(ray_backend, tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    scoring_rows(6).to_jsonl(rows)
    assert main(["evaluate", str(rows), "--out", str(tmp_path / "local.jsonl"), "-q"]) == 0
    assert main(["evaluate", str(rows), "--out", str(tmp_path / "ray.jsonl"), "--backend", "ray", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "scored on Ray on this machine, 2 CPUs" in printed
    local = EvaluationResult.load(tmp_path / "local.jsonl")
    remote = EvaluationResult.load(tmp_path / "ray.jsonl")
    assert cell_values(remote) == cell_values(local)


def test_score_on_ray_keeps_the_rows_whose_target_failed(ray_backend):
    """The target is asked from here; a question it failed keeps its error, and the others are scored in
    the workers as they are here."""
    data = scoring_rows(7)

    def target(question: str) -> tuple[str, list[str]]:
        if "9103" in question:
            raise RuntimeError("the index is down")
        port = question.split("port ")[1].split(" ")[0]
        return f"It exposes host metrics on port {port}.", [
            f"Port {port} serves the host exporter's metrics."
        ]

    local = score_rag(data, target, show_progress=False, cache=False)
    on_ray = score_rag(data, target, show_progress=False, cache=False, backend=ray_backend)
    assert cell_values(on_ray) == cell_values(local)
    failed = on_ray.cells[3]
    assert all("the index is down" in cell.error for cell in failed.values()) and len(failed) >= 4
    assert not any(cell.error for row in on_ray.cells[:3] for cell in row.values())
