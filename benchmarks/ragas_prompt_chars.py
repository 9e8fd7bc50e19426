"""What ragas 0.4.3 sends to the model for a 30-sample test set (prints, asserts nothing).

The counterpart of benchmarks/generation_cost.py run A: the same 45 Prometheus pages over 3 KB, the
same ../shared/tools/mockllm server (schema-valid random answers; its /stats counts what arrives),
30 samples, ragas' default transforms and query distribution, 16 workers (ragas' RunConfig default,
our CONCURRENCY). What `TestsetGenerator.generate_with_langchain_docs` does, in its two stages, so
that /stats can be read between them: `default_transforms` + `apply_transforms` (the knowledge
graph), then `generate` (personas, scenarios, samples). A crash (ragas may trip on random content)
is caught and reported with its stage; the figures up to it are printed all the same.

Run it with a Python that has ragas, never ours (it does not import groundset):
    python3 -m venv /tmp/ragas-venv && /tmp/ragas-venv/bin/pip install "ragas==0.4.3" langchain-openai
    /tmp/ragas-venv/bin/pip install 'langchain-community<0.4.2' rapidfuzz
    TIKTOKEN_CACHE_DIR=... /tmp/ragas-venv/bin/python benchmarks/ragas_prompt_chars.py [--no-raise]
        [--keep-alive] [--latency-ms N] [--port P] [--write-docs]
(ragas 0.4.3 imports langchain_community.chat_models.vertexai, gone in langchain-community 0.4.2, and
its default transforms need rapidfuzz, which it does not declare.)
ragas counts tokens with tiktoken's cl100k_base, which tiktoken downloads at first use; offline,
point TIKTOKEN_CACHE_DIR at a folder holding its cache file (litellm's wheel ships one in
litellm/litellm_core_utils/tokenizers/; an installed litellm is found by itself).
--no-raise: raise_exceptions=False (failed samples are dropped instead of ending the run).
--keep-alive: mockllm keeps connections open. Off by default: ragas runs each stage in its own event
loop, and the openai client's pooled connections from the previous loop then fail ("Event loop is
closed"), so the transforms stage fills with retried requests and persona generation crashes. What
is sent per request does not depend on keep-alive.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
import warnings
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402 (standard library only, like this script)

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"
MOCKLLM = ROOT.parent / "shared" / "tools" / "mockllm" / "server.py"
SIZE = 30
WORKERS = 16


def large_pages(folder: Path) -> list[Path]:
    """The pages over 3 KB, in the order of benchmarks/generation_cost.py's `large_pages`."""
    return [p for p in sorted(folder.rglob("*.md")) if p.stat().st_size > 3 * 1024]


@contextmanager
def mockllm_process(latency_ms: int, port: int, keep_alive: bool = False):
    """Yield the base URL of ../shared/tools/mockllm started in a subprocess (as _stub_process.py)."""
    command = [sys.executable, str(MOCKLLM), "--port", str(port), "--latency-ms", str(latency_ms)]
    command += ["--keep-alive"] if keep_alive else []
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
        else:
            raise RuntimeError(f"mockllm did not answer on port {port}")
        yield f"{url}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def stats(url: str) -> dict:
    with urllib.request.urlopen(f"{url.removesuffix('/v1')}/stats") as reply:
        return json.load(reply)


def tiktoken_ready() -> bool:
    """Whether cl100k_base loads (from TIKTOKEN_CACHE_DIR, or litellm's bundled copy if installed)."""
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        spec = importlib.util.find_spec("litellm")
        if spec and spec.submodule_search_locations:
            bundled = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
            if bundled.is_dir():
                os.environ["TIKTOKEN_CACHE_DIR"] = str(bundled)
    try:
        import tiktoken

        tiktoken.get_encoding("cl100k_base")
    except Exception:
        return False
    return True


def delta(after: dict, before: dict, key: str) -> int:
    return after.get(key, 0) - before.get(key, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=int, default=0)
    parser.add_argument("--port", type=int, default=8871)
    parser.add_argument("--no-raise", action="store_true", help="raise_exceptions=False")
    parser.add_argument("--keep-alive", action="store_true", help="mockllm --keep-alive (see the docstring)")
    args = parser.parse_args()

    if importlib.util.find_spec("ragas") is None or importlib.util.find_spec("langchain_openai") is None:
        print(
            "NOT RUN: ragas is not installed (pip install ragas==0.4.3 langchain-openai in a separate venv)"
        )
        return
    if not CORPUS.is_dir() or not MOCKLLM.is_file():
        print(f"NOT RUN: needs {CORPUS} and {MOCKLLM}")
        return
    if not tiktoken_ready():
        print(
            "NOT RUN: tiktoken cannot load cl100k_base (it downloads it at first use); set "
            "TIKTOKEN_CACHE_DIR to a folder holding its cache file (see this script's docstring)"
        )
        return
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # no telemetry requests
    warnings.filterwarnings("ignore", category=DeprecationWarning)

    try:
        import ragas
        from langchain_core.documents import Document
        from langchain_openai import ChatOpenAI, OpenAIEmbeddings
        from ragas.embeddings import LangchainEmbeddingsWrapper
        from ragas.llms import LangchainLLMWrapper
        from ragas.run_config import RunConfig
        from ragas.testset import TestsetGenerator
        from ragas.testset.graph import KnowledgeGraph, Node, NodeType
        from ragas.testset.transforms import apply_transforms, default_transforms
    except ImportError as exc:
        # ragas 0.4.3 imports langchain_community.chat_models.vertexai, gone in langchain-community 0.4.2.
        print(f"NOT RUN: ragas does not import ({exc}); try pip install 'langchain-community<0.4.2'")
        return

    pages = large_pages(CORPUS)
    # What DirectoryLoader(glob="**/*.md", loader_cls=TextLoader) gives: the text and its source path.
    docs = [Document(page_content=p.read_text(encoding="utf-8"), metadata={"source": str(p)}) for p in pages]
    raise_exceptions = not args.no_raise
    text_chars = sum(len(d.page_content) for d in docs)
    print(
        f"ragas {ragas.__version__}: {len(docs)} pages over 3 KB ({text_chars:,} chars), "
        f"testset_size {SIZE}, max_workers {WORKERS}, raise_exceptions {raise_exceptions}, "
        f"mockllm latency {args.latency_ms} ms, keep-alive {args.keep_alive}"
    )

    cache = Path(tempfile.mkdtemp(prefix="ragas-bench-"))  # nothing of ragas' own lands in the repo
    os.chdir(cache)
    with mockllm_process(args.latency_ms, args.port, keep_alive=args.keep_alive) as url:
        llm = LangchainLLMWrapper(ChatOpenAI(base_url=url, api_key="sk-mock", model="mock"))
        emb = LangchainEmbeddingsWrapper(
            OpenAIEmbeddings(
                base_url=url, api_key="sk-mock", model="mock-embed", check_embedding_ctx_length=False
            )
        )
        run_config = RunConfig(max_workers=WORKERS)
        marks = [("start", stats(url), time.perf_counter())]
        stage, error, testset = "knowledge graph (default_transforms + apply_transforms)", None, None
        try:
            transforms = default_transforms(documents=docs, llm=llm, embedding_model=emb)
            kg = KnowledgeGraph(
                nodes=[
                    Node(
                        type=NodeType.DOCUMENT,
                        properties={"page_content": d.page_content, "document_metadata": d.metadata},
                    )
                    for d in docs
                ]
            )
            apply_transforms(kg, transforms, run_config=run_config)
            marks.append(("knowledge graph", stats(url), time.perf_counter()))
            chunks = sum(1 for n in kg.nodes if n.type == NodeType.CHUNK)
            print(
                f"knowledge graph: {len(kg.nodes)} nodes ({chunks} chunks), "
                f"{len(kg.relationships)} relationships"
            )
            stage = "generate (personas, scenarios, samples)"
            generator = TestsetGenerator(llm=llm, embedding_model=emb, knowledge_graph=kg)
            testset = generator.generate(
                testset_size=SIZE, run_config=run_config, raise_exceptions=raise_exceptions
            )
            marks.append(("generation", stats(url), time.perf_counter()))
        except BaseException as exc:  # noqa: BLE001 - report whatever stopped ragas, then the counts
            error = exc
            marks.append((f"{stage} (until the crash)", stats(url), time.perf_counter()))
    shutil.rmtree(cache, ignore_errors=True)

    for (_, before, t0), (label, after, t1) in zip(marks, marks[1:], strict=False):
        print(
            f"  {label}: chat calls {delta(after, before, 'chat_completions')}, prompt chars "
            f"{delta(after, before, 'prompt_chars'):,}, "
            f"embedding calls {delta(after, before, 'embedding_calls')}, "
            f"{t1 - t0:.1f} s"
        )
    (_, first, t0), (_, last, t1) = marks[0], marks[-1]
    made = len(testset.samples) if testset is not None else 0
    print(f"completed: {'yes' if error is None else 'NO, crashed in ' + stage}")
    if error is not None:
        print(f"  error: {type(error).__name__}: {str(error)[:500]}")
        cause = error
        while cause.__cause__ is not None or cause.__context__ is not None:
            cause = cause.__cause__ or cause.__context__
        if cause is not error:
            print(f"  root cause: {type(cause).__name__}: {str(cause)[:300]}")
        if os.environ.get("RAGAS_BENCH_TRACEBACK"):
            traceback.print_exception(error)
    print(
        f"chat calls: {delta(last, first, 'chat_completions')} "
        f"(n requested {delta(last, first, 'chat_n_requested')})"
    )
    print(f"prompt chars: {delta(last, first, 'prompt_chars'):,}")
    print(
        "repeated requests (same messages as an earlier one): "
        f"{delta(last, first, 'duplicate_chat_requests')}"
    )
    print(f"completion chars: {delta(last, first, 'completion_chars'):,}")
    print(f"embedding calls: {delta(last, first, 'embedding_calls')}")
    print(f"samples made: {made} of {SIZE}")
    print(f"wall time: {t1 - t0:.1f} s")
    by_prompt = last.get("by_prompt") or {}
    if by_prompt:
        print("calls by first prompt line:")
        for line, count in sorted(by_prompt.items(), key=lambda kv: -kv[1])[:15]:
            print(f"  {count:5d}  {line[:100]}")


if __name__ == "__main__":
    with recorded("ragas_prompt_chars"):
        main()
