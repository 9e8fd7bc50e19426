"""Call-engine overhead and throughput against the local stub server (prints figures, asserts nothing).

(a) 2,000 distinct calls at 0 ms server latency, one at a time: mean time per call through the
    engine (cache on, structured output parsed) vs a raw ``ChatOpenAI.ainvoke`` of the same
    request. Target: ratio <= 1.25.
(b) 1,000 distinct calls at 50 ms latency with max_concurrency 32: wall time vs the ideal
    1000 * 0.05 / 32 s. Target: <= 1.2x the ideal.

Run: .venv/bin/python benchmarks/call_engine.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langchain_openai import ChatOpenAI  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from benchmarks._stub_process import stub_models, stub_process  # noqa: E402
from groundset.core import CallEngine, Prompt  # noqa: E402
from groundset.core.structured import Method, request_kwargs  # noqa: E402


class Question(BaseModel):
    text: str


class Answer(BaseModel):
    answer: str
    confident: bool


class AnswerPrompt(Prompt[Question, Answer]):
    name = "bench.answer"
    instruction = "Answer the question in one short sentence and say whether you are confident."


def chat(url: str) -> ChatOpenAI:
    return stub_models(url)[0]


async def raw_calls(model: ChatOpenAI, n: int, tag: str) -> float:
    prompt, kwargs = AnswerPrompt(), request_kwargs(Method.JSON_SCHEMA, Answer)
    start = time.perf_counter()
    for i in range(n):
        message = await model.ainvoke(prompt.messages(Question(text=f"{tag} {i}")), **kwargs)
        Answer.model_validate_json(message.content)
    return time.perf_counter() - start


async def engine_calls(model: ChatOpenAI, engine: CallEngine, n: int, tag: str) -> float:
    prompt = AnswerPrompt()
    start = time.perf_counter()
    for i in range(n):
        await prompt.run(model, Question(text=f"{tag} {i}"), engine=engine)
    return time.perf_counter() - start


async def part_a(model: ChatOpenAI, engine: CallEngine, calls: int, rounds: int) -> tuple[float, float]:
    """Alternate raw and engine rounds so machine noise hits both alike."""
    await raw_calls(model, 100, "warm-raw")
    await engine_calls(model, engine, 100, "warm-engine")
    raw = through = 0.0
    per_round = calls // rounds
    for r in range(rounds):
        raw += await raw_calls(model, per_round, f"raw-{r}")
        through += await engine_calls(model, engine, per_round, f"engine-{r}")
    return raw, through


async def raw_concurrent(model: ChatOpenAI, n: int, concurrency: int) -> float:
    prompt, kwargs = AnswerPrompt(), request_kwargs(Method.JSON_SCHEMA, Answer)
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with gate:
            message = await model.ainvoke(prompt.messages(Question(text=f"raw latency {i}")), **kwargs)
            Answer.model_validate_json(message.content)

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    return time.perf_counter() - start


async def engine_concurrent(model: ChatOpenAI, engine: CallEngine, n: int) -> float:
    prompt = AnswerPrompt()
    start = time.perf_counter()
    await asyncio.gather(*(prompt.run(model, Question(text=f"latency {i}"), engine=engine) for i in range(n)))
    return time.perf_counter() - start


def main() -> None:
    calls, rounds = 2000, 4
    with tempfile.TemporaryDirectory() as tmp, stub_process(latency=0.0) as url:
        model = chat(url)
        engine = CallEngine(cache=Path(tmp) / "a")
        # One event loop for all raw calls: ChatOpenAI's pooled client cannot cross loops
        # (the engine has no such limit; its I/O runs on a loop and a client of its own).
        raw, through = asyncio.run(part_a(model, engine, calls, rounds))
        cpu = time.process_time()
        cached = asyncio.run(engine_calls(model, engine, calls // rounds, "engine-0"))
        cached_cpu = time.process_time() - cpu
        print(f"(a) {calls} distinct calls at 0 ms latency, one at a time, {rounds} alternating rounds")
        print(f"    raw ChatOpenAI.ainvoke : {raw / calls * 1000:.3f} ms/call")
        print(f"    through the engine     : {through / calls * 1000:.3f} ms/call (cache on, output parsed)")
        print(f"    ratio                  : {through / raw:.3f}x  (target <= 1.25x)")
        print(
            f"    the same calls again from the cache: {cached / (calls // rounds) * 1000:.3f} ms/call "
            f"({cached_cpu / (calls // rounds) * 1000:.3f} ms CPU)"
        )

    n, latency, concurrency = 1000, 0.05, 32
    ideal = n * latency / concurrency
    with tempfile.TemporaryDirectory() as tmp, stub_process(latency=latency) as url:
        model = chat(url)
        cpu = time.process_time()
        raw_wall = asyncio.run(raw_concurrent(model, n, concurrency))
        raw_cpu = time.process_time() - cpu
        engine = CallEngine(cache=Path(tmp) / "b", max_concurrency=concurrency)
        cpu = time.process_time()
        wall = asyncio.run(engine_concurrent(chat(url), engine, n))
        engine_cpu = time.process_time() - cpu
        total = engine.usage.total()
        print(
            f"(b) {n} distinct calls at {latency * 1000:.0f} ms latency, max_concurrency {concurrency}; "
            f"ideal {ideal:.2f} s"
        )
        print(
            f"    raw ChatOpenAI, same concurrency: {raw_wall:.2f} s ({raw_wall / ideal:.2f}x ideal), "
            f"client CPU {raw_cpu / n * 1000:.2f} ms/call"
        )
        print(
            f"    through the engine              : {wall:.2f} s ({wall / ideal:.2f}x ideal, "
            f"{wall / raw_wall:.2f}x raw), client CPU {engine_cpu / n * 1000:.2f} ms/call"
            "  (target <= 1.2x ideal)"
        )
        print(f"    requests {total.calls}, retries {total.retries}, errors {total.errors}")


if __name__ == "__main__":
    main()
