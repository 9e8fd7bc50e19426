"""The call engine against a real HTTP stub: single-flight, cache, retries, timeouts, usage, n."""

from __future__ import annotations

import asyncio
import time

import pytest

from groundset.core import CallEngine, ModelCallError, ModelTimeoutError, RetryPolicy, track

from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage, SplitPrompt


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


async def test_429_with_retry_after_is_retried_after_the_wait(stub, chat, engine):
    stub.push(Reply.error(429, retry_after=1))
    start = time.monotonic()
    verdict = await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert isinstance(verdict.supported, bool)
    first, second = stub.chat_requests
    assert first.status == 429 and second.status == 200
    assert second.received_at - first.received_at >= 1.0
    assert time.monotonic() - start >= 1.0
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
    start = time.monotonic()
    with pytest.raises(ModelTimeoutError) as caught:
        await JudgePrompt().run(chat, Passage(text="a"), engine=engine)
    assert time.monotonic() - start < 3  # cancelled, not waited out
    assert "timed out after 0.5 s" in str(caught.value) and caught.value.attempts == 2
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


async def test_requests_per_second_limit_spaces_requests(stub, chat, tmp_path):
    engine = CallEngine(cache=False, requests_per_second=10)
    await asyncio.gather(*(JudgePrompt().run(chat, Passage(text=f"r{i}"), engine=engine) for i in range(6)))
    times = sorted(r.received_at for r in stub.chat_requests)
    assert times[-1] - times[0] >= 0.4  # 6 requests at 10/s need at least ~0.5 s


async def test_max_concurrency_bounds_requests_in_flight(stub, chat, tmp_path):
    engine = CallEngine(cache=False, max_concurrency=3)
    stub.latency = 0.1
    peak = 0

    async def watch():
        nonlocal peak
        while True:
            peak = max(peak, engine.max_concurrency - engine._semaphore._value if engine._semaphore else 0)
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
