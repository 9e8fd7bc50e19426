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


MOCKLLM = ROOT.parent / "shared" / "tools" / "mockllm" / "server.py"


@contextmanager
def mockllm_process(latency_ms: int = 0, port: int = 8791):
    """Yield the base URL of ../shared/tools/mockllm (schema-valid but random answers), or None when
    that tool is not beside the checkout."""
    if not MOCKLLM.is_file():
        yield None
        return
    import json
    import time
    import urllib.request

    command = [
        sys.executable,
        str(MOCKLLM),
        "--port",
        str(port),
        "--latency-ms",
        str(latency_ms),
        "--keep-alive",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1) as answer:
                    json.load(answer)
                break
            except OSError:
                time.sleep(0.05)
        yield f"{url}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
