"""Run the test suite's OpenAI-compatible stub in its own process, so it does not share our GIL."""

from __future__ import annotations

import logging
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The benchmarks print their own figures; the loader's per-file warnings would only add noise.
logging.getLogger("groundset.documents.loader").setLevel(logging.ERROR)


@contextmanager
def stub_process(latency: float = 0.0, *, scripted: bool = False):
    """Yield the base URL of a stub server started in a subprocess with the given latency.

    ``scripted``: answer groundset's prompts plausibly (tests/scripted_model.py) instead of with
    bare schema-valid instances, so whole pipelines run through it.
    """
    stub = str(ROOT / "tests" / "openai_stub.py")
    command = [sys.executable, stub, "--port", "0", "--latency", str(latency)]
    if scripted:
        command = [sys.executable, "-m", "benchmarks._scripted_stub", "--latency", str(latency)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("STUB_URL="):
            raise RuntimeError(f"the stub did not start: {line!r}")
        yield line.split("=", 1)[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def stub_models(url: str):
    """ChatOpenAI and OpenAIEmbeddings pointed at a stub (no client retries: the engine retries)."""
    from langchain_openai import ChatOpenAI, OpenAIEmbeddings

    llm = ChatOpenAI(base_url=url, api_key="sk-bench", model="stub-model", max_retries=0)
    embeddings = OpenAIEmbeddings(
        base_url=url, api_key="sk-bench", model="stub-embed", check_embedding_ctx_length=False, max_retries=0
    )
    return llm, embeddings
