"""Start ../shared/tools/mockllm in a subprocess on a free 127.0.0.1 port, faults and all.

The fault suite needs a server that misbehaves the way real endpoints do (429 with Retry-After,
5xx, resets, slow, malformed, truncated, schema-violating answers), reproducibly: mockllm draws each
fault from its seed and a request counter, never from the request, so a retried request can succeed.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER = Path(__file__).resolve().parents[3] / "shared" / "tools" / "mockllm" / "server.py"
DEFAULT_KINDS = "429,500,503,reset,slow,malformed,truncated,schema"
MISSING = f"mockllm is not beside the checkout ({SERVER} not found): the fault suite needs it"


@dataclass
class MockLLM:
    """A running mockllm: its OpenAI base URL and its counters."""

    base_url: str
    process: subprocess.Popen[str]

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1].split("/")[0])

    def stats(self) -> dict[str, Any]:
        root = self.base_url.removesuffix("/v1")
        with urllib.request.urlopen(f"{root}/stats", timeout=5) as answer:
            return json.load(answer)

    def chat(self, **options: Any) -> Any:
        """A ChatOpenAI pointed here, with no client retries: the engine does the retrying."""
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            base_url=self.base_url, api_key="sk-mock", model="mock-gpt", max_retries=0, **options
        )

    def embeddings(self) -> Any:
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(
            base_url=self.base_url,
            api_key="sk-mock",
            model="mock-embed",
            max_retries=0,
            check_embedding_ctx_length=False,
        )


@contextmanager
def mockllm(
    *, fault_rate: float = 0.0, kinds: str = DEFAULT_KINDS, slow_ms: int = 3000, seed: int = 0, port: int = 0
) -> Iterator[MockLLM]:
    """Yield a mockllm started with these faults. Port 0 lets the OS pick a free port, read back from
    the server's first line, so parallel runs never collide; a rerun passes the port of the server it
    replaces, as the base URL is part of the model's identity and so of every cache key."""
    if not SERVER.is_file():
        raise FileNotFoundError(MISSING)
    command = [sys.executable, str(SERVER), "--port", str(port), "--seed", str(seed), "--keep-alive"]
    if fault_rate:
        command += ["--fault-rate", str(fault_rate), "--fault-kinds", kinds, "--slow-ms", str(slow_ms)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if "listening on " not in line:
            raise RuntimeError(f"mockllm did not start: {line!r}")
        url = line.split("listening on ", 1)[1].split()[0]
        yield MockLLM(url, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stdout:
            proc.stdout.close()


def fault_draws(seed: int, count: int, rate: float, kinds: list[str]) -> list[str | None]:
    """The fault kind (or None) mockllm draws for each of its first ``count`` requests.

    This repeats decide_fault in mockllm's server.py (its seed and a request counter, never the
    content); the tests check /stats' faults_by_kind, so a change there fails loudly, not silently.
    """
    draws: list[str | None] = []
    for seq in range(count):
        digest = hashlib.sha256(f"mockllm-fault:{seed}:{seq}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        draws.append(kinds[rng.randrange(len(kinds))] if rng.random() < rate else None)
    return draws


def seed_for(pattern: list[bool], rate: float = 0.5) -> int:
    """A --seed whose first requests fault exactly where ``pattern`` is True."""
    return next(
        seed
        for seed in range(100_000)
        if [d is not None for d in fault_draws(seed, len(pattern), rate, ["x"])] == list(pattern)
    )


def seed_covering(within: int, rate: float, kinds: str = DEFAULT_KINDS) -> int:
    """A --seed that draws every one of ``kinds`` among its first ``within`` requests."""
    wanted = kinds.split(",")
    return next(
        seed for seed in range(100_000) if set(wanted) <= set(fault_draws(seed, within, rate, wanted))
    )
