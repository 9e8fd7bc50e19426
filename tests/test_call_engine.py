"""The call engine against a real HTTP stub: single-flight, cache, retries, timeouts, usage, n."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from groundset.core import CallEngine, ModelCallError, ModelTimeoutError, RetryPolicy, track
from groundset.core import engine as engine_module

from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage, SplitPrompt


class _Module:
    """A module stand-in for one test: the given attributes replaced, the rest the real module's."""

    def __init__(self, real: Any, **replaced: Any) -> None:
        self._real = real
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _record_engine_sleeps(monkeypatch: pytest.MonkeyPatch, stub) -> list[tuple[float, list[int | None]]]:
    """The engine's sleeps (its waits before a retry) as (seconds, statuses of the stub's chat requests
    by then). They are recorded, not slept: the test reads the wait instead of timing it."""
    sleeps: list[tuple[float, list[int | None]]] = []
    sleep = asyncio.sleep

    async def record(delay: float, result: Any = None) -> Any:
        sleeps.append((delay, [request.status for request in stub.chat_requests]))
        return await sleep(0, result)

    monkeypatch.setattr(engine_module, "asyncio", _Module(asyncio, sleep=record))
    return sleeps


async def test_identical_concurrent_calls_make_one_request_then_zero_from_cache(stub, chat, tmp_path):
    engine = CallEngine(cache=tmp_path / "cache")
    prompt = JudgePrompt()
    data = Passage(text="Alertmanager groups alerts.")
    results = await asyncio.gather(*(prompt.run(chat, data, engine=engine) for _ in range(100)))
    assert len(stub.chat_requests) == 1
    assert all(r == results[0] for r in results)
    assert engine.usage["test.judge"].calls == 1
    assert engine.usage["test.judge"].shared == 99

    second = CallEngine(cache=tmp_path / "cache")  # a new process would see the same file
    again = await asyncio.gather(*(prompt.run(chat, data, engine=second) for _ in range(100)))
    assert len(stub.chat_requests) == 1
    assert again == results
    assert second.usage["test.judge"].calls == 0
    assert second.usage["test.judge"].cache_hits + second.usage["test.judge"].shared == 100


async def test_429_with_retry_after_is_retried_after_the_wait(stub, chat, engine, monkeypatch):
    sleeps = _record_engine_sleeps(monkeypatch, stub)
    stub.push(Reply.error(429, retry_after=1))
    verdict = await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert isinstance(verdict.supported, bool)
    first, second = stub.chat_requests
    assert first.status == 429 and second.status == 200
    # One wait, after the 429 and before the retry, of at least the server's Retry-After of 1 s (the
    # fixture's backoff alone would wait about 0.01 s).
    assert len(sleeps) == 1, sleeps
    [(wait, answered_before)] = sleeps
    assert wait >= 1.0 and answered_before == [429]
    usage = engine.usage["test.judge"]
    assert (usage.calls, usage.retries, usage.errors) == (2, 1, 1)


async def test_permanent_500_fails_after_the_configured_retries(stub, chat, tmp_path):
    engine = CallEngine(cache=tmp_path / "c", retry=RetryPolicy(max_retries=3, base_delay=0.01))
    stub.always(Reply.error(500, message="backend exploded"))
    with pytest.raises(ModelCallError) as caught:
        await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert len(stub.chat_requests) == 4
    assert caught.value.attempts == 4 and caught.value.status == 500
    message = str(caught.value)
    assert "test.judge" in message and "HTTP 500" in message and "4 attempts" in message
    # nothing was cached: the next run asks again
    stub.always(None)
    await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert len(stub.chat_requests) == 5


async def test_400_is_not_retried(stub, chat, tmp_path):
    engine = CallEngine(cache=False, retry=RetryPolicy(max_retries=3, base_delay=0.01))
    stub.always(Reply.error(401, message="bad key"))
    with pytest.raises(ModelCallError) as caught:
        await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert caught.value.status == 401 and len(stub.chat_requests) == 1


async def test_slow_response_is_cancelled_and_reported_as_timeout(stub, chat, tmp_path):
    engine = CallEngine(cache=False, timeout=0.5, retry=RetryPolicy(max_retries=1, base_delay=0.01))
    stub.always(Reply.slow(5))
    with pytest.raises(ModelTimeoutError) as caught:
        await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert "timed out after 0.5 s" in str(caught.value) and caught.value.attempts == 2
    # Cancelled, not waited out: the stub, still holding each 5 s reply, had answered neither attempt.
    assert [r.status for r in stub.chat_requests] == [None, None]
    for _ in range(50):  # the server sees both connections dropped by the client
        if sum(r.client_disconnected for r in stub.chat_requests) == 2:
            break
        await asyncio.sleep(0.05)
    assert [r.client_disconnected for r in stub.chat_requests] == [True, True]


async def test_truncated_body_is_retried(stub, chat, engine):
    stub.push(Reply.truncated())
    verdict = await JudgePrompt().run(chat, Passage(text="b"), engine=engine)
    assert isinstance(verdict.reason, str)
    assert len(stub.chat_requests) == 2 and engine.usage["test.judge"].retries == 1


async def test_usage_adds_up_to_what_the_stub_served(stub, chat, engine):
    with track() as run_usage:
        await asyncio.gather(
            *(JudgePrompt().run(chat, Passage(text=f"fact {i}"), engine=engine) for i in range(7))
        )
        await asyncio.gather(
            *(
                SplitPrompt().run(chat, Passage(text=f"one. two {i}."), engine=engine, stage="split")
                for i in range(5)
            )
        )
    served_in, served_out = stub.served_usage
    judge, split = run_usage["test.judge"], run_usage["split"]
    assert (judge.calls, split.calls) == (7, 5)
    assert judge.input_tokens + split.input_tokens == served_in
    assert judge.output_tokens + split.output_tokens == served_out
    assert judge.cache_hits == split.cache_hits == 0
    # the same calls again: all from the cache, counted apart, no tokens spent
    with track() as rerun:
        for i in range(7):
            await JudgePrompt().run(chat, Passage(text=f"fact {i}"), engine=engine)
    assert rerun["test.judge"].cache_hits == 7
    assert rerun["test.judge"].calls == 0 and rerun["test.judge"].input_tokens == 0
    assert engine.usage["test.judge"].calls == 7 and engine.usage["test.judge"].cache_hits == 7
    assert len(stub.chat_requests) == 12


async def test_n_is_sent_per_request_under_concurrency(stub, chat, engine):
    wanted = {f"passage {i}": 1 + i % 5 for i in range(100)}
    outputs = await asyncio.gather(
        *(JudgePrompt().run(chat, Passage(text=t), n=n, engine=engine) for t, n in wanted.items())
    )
    for (text, n), out in zip(wanted.items(), outputs, strict=True):
        assert (len(out) if isinstance(out, list) else 1) == n, text
    seen = {}
    for request in stub.chat_requests:
        human = request.body["messages"][-1]["content"]
        text = human.split('"text":"', 1)[1].split('"', 1)[0]
        seen[text] = request.body.get("n", 1)
    assert seen == wanted
    assert chat.n is None  # the shared model object was never mutated


async def test_requests_per_second_limit_spaces_requests(stub, chat, monkeypatch):
    from langchain_core import rate_limiters

    engine = CallEngine(cache=False, requests_per_second=10)
    # The limiter's clock is a counter (10 ms per reading) and its polling sleeps only yield: its
    # decisions are read in its own time rather than measured in ours.
    readings = itertools.count()
    now = [0.0]

    def clock() -> float:
        now[0] = next(readings) / 100
        return now[0]

    sleep = asyncio.sleep
    monkeypatch.setattr(rate_limiters, "time", _Module(time, monotonic=clock))
    monkeypatch.setattr(rate_limiters, "asyncio", _Module(asyncio, sleep=lambda _seconds: sleep(0)))
    events: list[tuple[str, float]] = []
    limiter = engine._rate_limiter()
    acquire = limiter.aacquire

    async def granted(**kwargs: Any) -> bool:
        result = await acquire(**kwargs)
        events.append(("grant", now[0]))
        return result

    def arrived(body: dict) -> None:
        events.append(("request", now[0]))  # None: the stub's default answer

    monkeypatch.setattr(limiter, "aacquire", granted)
    stub.on_chat(arrived)
    await asyncio.gather(*(JudgePrompt().run(chat, Passage(text=f"r{i}"), engine=engine) for i in range(6)))
    kinds = [kind for kind, _ in events]
    assert kinds.count("grant") == kinds.count("request") == len(stub.chat_requests) == 6
    # No request reached the server before the limiter had let one more through,
    assert all(kinds[:i].count("grant") >= kinds[:i].count("request") for i in range(len(kinds) + 1))
    # and the limiter let them through at 10 per second of its clock.
    grants = [at for kind, at in events if kind == "grant"]
    assert all(later - earlier >= 0.1 - 1e-9 for earlier, later in itertools.pairwise(grants))


async def test_max_concurrency_bounds_requests_in_flight(stub, chat, tmp_path):
    engine = CallEngine(cache=False, max_concurrency=3)
    stub.latency = 0.1
    peak = 0

    async def watch():
        nonlocal peak
        while True:
            slots = engine._slots.get("chat")
            peak = max(peak, engine.max_concurrency - slots._value if slots else 0)
            await asyncio.sleep(0.005)

    async def run_all():
        await asyncio.gather(
            *(JudgePrompt().run(chat, Passage(text=f"c{i}"), engine=engine) for i in range(12))
        )

    from groundset.core.aio import on_engine

    watcher = asyncio.ensure_future(on_engine(watch()))
    await run_all()
    watcher.cancel()
    assert peak == 3
    assert len(stub.chat_requests) == 12


async def test_malformed_http_body_is_retried_then_reported(stub, chat, tmp_path):
    engine = CallEngine(cache=False, retry=RetryPolicy(max_retries=1, base_delay=0.01))
    stub.push(Reply.malformed_body())
    assert isinstance((await JudgePrompt().run(chat, Passage(text="mb"), engine=engine)).supported, bool)
    assert len(stub.chat_requests) == 2
    stub.always(Reply.malformed_body())
    with pytest.raises(ModelCallError, match="2 attempts"):
        await JudgePrompt().run(chat, Passage(text="mb2"), engine=engine)


async def test_cost_comes_from_the_price_table_and_n_counts_tokens_once(stub, chat, tmp_path):
    engine = CallEngine(cache=False, prices={"stub-model": (1.0, 2.0)})
    await SplitPrompt().run(chat, Passage(text="one. two."), n=3, engine=engine)
    served_in, served_out = stub.served_usage
    usage = engine.usage["test.split"]
    assert (usage.input_tokens, usage.output_tokens) == (served_in, served_out)
    assert usage.cost == pytest.approx((served_in * 1.0 + served_out * 2.0) / 1e6)
    unpriced = CallEngine(cache=False, prices={})
    await SplitPrompt().run(chat, Passage(text="three."), engine=unpriced)
    assert unpriced.usage["test.split"].cost == 0 and unpriced.usage["test.split"].unpriced_calls == 1


async def test_a_shared_call_survives_one_cancelled_caller_and_stops_when_all_give_up(stub, chat, tmp_path):
    engine = CallEngine(cache=False)
    stub.latency = 0.3
    data = Passage(text="shared and cancelled")
    first = asyncio.ensure_future(JudgePrompt().run(chat, data, engine=engine))
    second = asyncio.ensure_future(JudgePrompt().run(chat, data, engine=engine))
    await asyncio.sleep(0.1)
    first.cancel()
    assert isinstance((await second).supported, bool)  # the other caller still gets the answer
    assert len(stub.chat_requests) == 1
    lonely = asyncio.ensure_future(JudgePrompt().run(chat, Passage(text="nobody waits"), engine=engine))
    await asyncio.sleep(0.1)
    lonely.cancel()
    for _ in range(50):
        if stub.chat_requests[-1].client_disconnected:
            break
        await asyncio.sleep(0.02)
    assert stub.chat_requests[-1].client_disconnected  # nobody waited: the request was dropped


async def test_embeddings_do_not_queue_behind_chat_calls(stub, chat, openai_embeddings):
    """Chat and embeddings requests each have ``max_concurrency`` slots: with the one chat slot held by a
    slow call, an embedding request (whose vectors the next chat calls may wait for) still goes out."""
    engine = CallEngine(cache=False, max_concurrency=1)
    stub.on_chat(lambda body: Reply.slow(1.0))
    finished: list[str] = []

    async def ask() -> None:
        await JudgePrompt().run(chat, Passage(text="slow"), engine=engine)
        finished.append("chat")

    async def embed() -> None:
        while not stub.chat_requests:  # the chat call holds the only chat slot
            await asyncio.sleep(0.01)
        await engine.embed(openai_embeddings, ["a text"])
        finished.append("embeddings")

    await asyncio.gather(ask(), embed())
    assert finished == ["embeddings", "chat"]
    assert len(stub.embedding_requests) == 1


# -- issue 27: the cache file is read and written off the engine loop ----------------------------------


async def test_the_engine_reads_and_writes_the_cache_file_off_its_loop(
    stub, chat, openai_embeddings, tmp_path
):
    from groundset.core import CallCache
    from groundset.core.aio import on_engine_thread

    on_loop: list[str] = []

    class WatchedCache(CallCache):
        def get(self, key):
            if on_engine_thread():
                on_loop.append("get")
            return super().get(key)

        def get_many(self, keys):
            if on_engine_thread():
                on_loop.append("get_many")
            return super().get_many(keys)

    engine = CallEngine(cache=WatchedCache(tmp_path / "cache"))
    data = [Passage(text=f"Alertmanager route {i}.") for i in range(3)]
    first = [await JudgePrompt().run(chat, d, engine=engine) for d in data]
    await engine.embed(openai_embeddings, ["routes", "receivers"])
    rerun = CallEngine(cache=WatchedCache(tmp_path / "cache"))
    assert [await JudgePrompt().run(chat, d, engine=rerun) for d in data] == first
    await rerun.embed(openai_embeddings, ["routes", "receivers"])
    assert on_loop == [] and len(stub.chat_requests) == 3 and len(stub.embedding_requests) == 1
    assert rerun.usage["test.judge"].cache_hits == 3 and rerun.usage["embeddings"].cache_hits == 2


async def test_concurrent_identical_calls_on_a_warm_cache_each_count_as_a_hit(stub, chat, tmp_path):
    data = Passage(text="Alertmanager inhibits alerts.")
    await JudgePrompt().run(chat, data, engine=CallEngine(cache=tmp_path / "cache"))
    warm = CallEngine(cache=tmp_path / "cache")
    results = await asyncio.gather(*(JudgePrompt().run(chat, data, engine=warm) for _ in range(20)))
    assert len(set(map(repr, results))) == 1 and len(stub.chat_requests) == 1
    usage = warm.usage["test.judge"]
    assert (usage.calls, usage.cache_hits, usage.shared) == (0, 20, 0)


async def test_timeouts_narrow_the_requests_in_flight(stub, chat, caplog):
    """A server that answers one request at a time makes the ones behind it wait past the timeout: after a
    timeout the engine halves what it sends at once (down to one), and the retries then get through."""
    engine = CallEngine(
        cache=False, timeout=0.5, max_concurrency=8, retry=RetryPolicy(max_retries=4, base_delay=0.01)
    )
    await JudgePrompt().run(chat, Passage(text="first"), engine=engine)  # the output format is settled
    stub.push(*[Reply.slow(2.0)] * 8)  # the next eight requests hang; later ones are answered at once
    verdicts = await asyncio.gather(
        *(JudgePrompt().run(chat, Passage(text=f"p{i}"), engine=engine) for i in range(8))
    )
    assert len(verdicts) == 8
    assert engine.in_flight_limit("chat") < 8 and engine.in_flight_limit("embeddings") == 8
    assert "at most" in caplog.text and "in flight from now on" in caplog.text


async def test_one_unusable_answer_of_n_stops_its_siblings_repairs():
    """When one of n answers fails for good, the prompt fails whatever the others give: their pending
    work (a repair request each) is cancelled instead of paid for and thrown away."""
    from groundset.core.aio import all_or_nothing

    finished: list[str] = []

    async def part(name: str, delay: float, fails: bool) -> str:
        await asyncio.sleep(delay)
        if fails:
            raise ValueError(f"{name} stayed unusable")
        finished.append(name)
        return name

    assert await all_or_nothing(part("a", 0.0, False), part("b", 0.01, False)) == ["a", "b"]
    finished.clear()
    with pytest.raises(ValueError, match="b stayed unusable"):
        await all_or_nothing(part("a", 0.0, False), part("b", 0.01, True), part("c", 5.0, False))
    await asyncio.sleep(0.05)
    assert finished == ["a"]  # c was cancelled, not left running
