"""Prompts: structured output methods and fallbacks, repair, n, offline form, overrides, sync twin."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage

from groundset.core import (
    OFFLINE_LLM,
    CallEngine,
    OfflineUnsupported,
    Prompt,
    PromptOutputError,
    list_prompts,
)

from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage, SplitPrompt, Statements, Verdict

GOOD = {"supported": True, "reason": "It says so."}


async def test_json_schema_is_sent_first_and_validated(stub, chat, engine):
    verdict = await JudgePrompt().run(chat, Passage(text="x"), engine=engine)
    assert isinstance(verdict, Verdict)
    body = stub.chat_requests[0].body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["required"] == ["supported", "reason"]
    assert "tools" not in body


async def test_falls_back_to_tools_then_to_json_text(stub, chat, engine):
    def handler(body):
        if "response_format" in body:
            return Reply.error(400, message="response_format json_schema is not supported")
        if "tools" in body:
            return Reply.error(400, message="tools are not supported")
        return Reply.text("Here you go:\n```json\n" + json.dumps(GOOD) + "\n```")

    stub.on_chat(handler)
    verdict = await JudgePrompt().run(chat, Passage(text="y"), engine=engine)
    assert verdict == Verdict(**GOOD)
    kinds = [
        "rf" if "response_format" in r.body else "tools" if "tools" in r.body else "text"
        for r in stub.chat_requests
    ]
    assert kinds == ["rf", "rf", "tools", "text"]  # json_schema, then json_object with the schema
    assert stub.chat_requests[1].body["response_format"]["type"] == "json_object"
    assert "JSON schema" in stub.chat_requests[-1].body["messages"][0]["content"]
    # the working method is remembered: the next prompt goes straight to text
    await JudgePrompt().run(chat, Passage(text="z"), engine=engine)
    assert "response_format" not in stub.chat_requests[-1].body and len(stub.chat_requests) == 5


async def test_a_500_that_rejects_the_format_is_not_retried_and_json_object_is_used(
    stub, chat, engine, caplog
):
    """llama-cpp-python's server answers json_schema with a 500 in its validator's words: the request
    is refused as sent, so it goes at once to json_object with the schema, remembered for the model."""

    def handler(body):
        if body.get("response_format", {}).get("type") == "json_schema":
            return Reply.error(500, message="1 validation error: Input should be 'text' or 'json_object'")
        return Reply.json(GOOD)

    stub.on_chat(handler)
    assert await JudgePrompt().run(chat, Passage(text="a"), engine=engine) == Verdict(**GOOD)
    formats = [r.body["response_format"]["type"] for r in stub.chat_requests]
    assert formats == ["json_schema", "json_object"]  # no retries of the refused request
    assert stub.chat_requests[1].body["response_format"]["schema"]["required"] == ["supported", "reason"]
    await JudgePrompt().run(chat, Passage(text="b"), engine=engine)
    assert stub.chat_requests[-1].body["response_format"]["type"] == "json_object"
    assert len(stub.chat_requests) == 3
    said = [r.getMessage() for r in caplog.records if "from now on" in r.getMessage()]
    assert said == ["stub-model refused json_schema output; json_object is used for it from now on"]
    # what the server takes belongs to the model and server, not to one chat object's sampling settings:
    # a writer at another temperature goes straight to json_object too
    await JudgePrompt().run(chat.model_copy(update={"temperature": 0.9}), Passage(text="c"), engine=engine)
    assert [r.body["response_format"]["type"] for r in stub.chat_requests[3:]] == ["json_object"]
    assert engine.usage.total().fallbacks == 1


async def test_a_plain_500_is_still_retried(stub, chat, engine):
    stub.push(Reply.error(500, message="internal error"), Reply.json(GOOD))
    assert await JudgePrompt().run(chat, Passage(text="c"), engine=engine) == Verdict(**GOOD)
    assert [r.body["response_format"]["type"] for r in stub.chat_requests] == ["json_schema", "json_schema"]


async def test_tool_calling_answer_is_parsed(stub, chat, engine):
    stub.on_chat(lambda body: Reply.error(400) if "response_format" in body else None)
    verdict = await JudgePrompt().run(chat, Passage(text="tools"), engine=engine)
    assert isinstance(verdict, Verdict)
    assert stub.chat_requests[-1].body["tool_choice"]["function"]["name"] == "Verdict"


async def test_malformed_json_gets_exactly_one_repair_then_a_typed_error(stub, chat, engine):
    stub.always(Reply.text('{"supported": true, "reason": "cut off'))
    with pytest.raises(PromptOutputError) as caught:
        await JudgePrompt().run(chat, Passage(text="m"), engine=engine)
    assert len(stub.chat_requests) == 2
    assert caught.value.raw == '{"supported": true, "reason": "cut off'
    assert "not JSON" in caught.value.error
    repair = stub.chat_requests[1].body["messages"]
    assert repair[-2]["role"] == "assistant" and "cannot be used" in repair[-1]["content"]
    assert engine.usage["test.judge"].repairs == 1


async def test_a_repair_request_answered_with_no_choices_is_a_typed_error(stub, chat, engine):
    stub.push(Reply.text("not json"), Reply.no_choices())
    with pytest.raises(PromptOutputError) as caught:
        await JudgePrompt().run(chat, Passage(text="empty repair"), engine=engine)
    assert len(stub.chat_requests) == 2
    assert "not JSON" in caught.value.error and "got no answer at all" in caught.value.error


async def test_schema_violating_answer_is_treated_the_same_way(stub, chat, engine):
    stub.always(Reply.json({"supported": "perhaps", "reason": 3}))
    with pytest.raises(PromptOutputError) as caught:
        await JudgePrompt().run(chat, Passage(text="s"), engine=engine)
    assert len(stub.chat_requests) == 2
    assert "does not match the schema" in caught.value.error and "supported" in caught.value.error


async def test_a_successful_repair_is_cached(stub, chat, engine):
    stub.push(Reply.text("no json here"), Reply.json(GOOD))
    verdict = await JudgePrompt().run(chat, Passage(text="r"), engine=engine)
    assert verdict == Verdict(**GOOD)
    again = await JudgePrompt().run(chat, Passage(text="r"), engine=engine)
    assert again == verdict and len(stub.chat_requests) == 2


async def test_n_outputs_come_from_one_request(stub, chat, engine):
    outs = await SplitPrompt().run(chat, Passage(text="a. b."), n=3, engine=engine)
    assert len(outs) == 3 and all(isinstance(o, Statements) for o in outs)
    assert len(stub.chat_requests) == 1 and stub.chat_requests[0].body["n"] == 3


async def test_a_server_that_refuses_n_is_asked_one_answer_at_a_time(stub, chat, engine, caplog):
    """llama.cpp's server refuses more answers per request than it has slots (a 400 naming n): the
    answers are asked one per request, and the model is not sent n > 1 again."""

    def handler(body):
        if body.get("n", 1) > 2:
            return Reply.error(400, message="Field 'n': Value must be between 1 <= value <= 2, but got 3")
        return None

    stub.on_chat(handler)
    outs = await SplitPrompt().run(chat, Passage(text="a. b."), n=3, engine=engine)
    assert len(outs) == 3 and all(isinstance(o, Statements) for o in outs)
    assert [r.body.get("n", 1) for r in stub.chat_requests] == [3, 1, 1, 1]
    assert engine.usage.total().fallbacks == 0  # the output format stayed json_schema
    said = [r.getMessage() for r in caplog.records if "one at a time" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("stub-model refused 3 answers per request")
    await SplitPrompt().run(chat, Passage(text="c. d."), n=2, engine=engine)
    assert [r.body.get("n", 1) for r in stub.chat_requests[4:]] == [1, 1]


async def test_fake_chat_model_json_in_text_and_n(engine):
    fake = FakeListChatModel(
        responses=[json.dumps(GOOD), json.dumps({**GOOD, "supported": False}), json.dumps(GOOD)]
    )
    outs = await JudgePrompt().run(fake, Passage(text="fake"), n=3, engine=engine)
    # the n asks run concurrently, so which ask gets which scripted reply is not fixed
    assert sorted(o.supported for o in outs) == [False, True, True]
    assert engine.usage["test.judge"].calls == 3  # a model without n support is asked n times


async def test_generic_fake_model_repair(engine):
    replies = iter([AIMessage("sorry, I cannot"), AIMessage(json.dumps(GOOD))])
    fake = GenericFakeChatModel(messages=replies)
    verdict = await JudgePrompt().run(fake, Passage(text="gf"), engine=engine)
    assert verdict == Verdict(**GOOD)
    assert engine.usage["test.judge"].calls == 2 and engine.usage["test.judge"].repairs == 1


async def test_offline_form_and_offline_unsupported(engine):
    out = await SplitPrompt().run(OFFLINE_LLM, Passage(text="One. Two."), engine=engine)
    assert out.statements == ["One", "Two"]
    assert (
        await SplitPrompt().run(None, Passage(text="One."), n=2, engine=engine)
        == [out.model_copy(update={"statements": ["One"]})] * 2
    )
    with pytest.raises(OfflineUnsupported) as caught:
        await JudgePrompt().run("offline", Passage(text="x"), engine=engine)
    assert "test.judge" in str(caught.value) and caught.value.reason
    assert engine.usage["test.split"].offline == 2 and engine.usage["test.split"].calls == 0


async def test_overrides_change_the_cache_key(stub, chat, engine):
    base = JudgePrompt()
    custom = JudgePrompt(instruction="Judge strictly. Is it a fact about software?", examples=[])
    assert base.fingerprint() != custom.fingerprint()
    assert custom.examples == [] and base.examples
    await base.run(chat, Passage(text="o"), engine=engine)
    await custom.run(chat, Passage(text="o"), engine=engine)
    assert len(stub.chat_requests) == 2
    assert stub.chat_requests[1].body["messages"][0]["content"].startswith("Judge strictly.")
    assert JudgePrompt().fingerprint() == base.fingerprint()  # the class default is untouched


def test_prompts_are_listed_and_checked():
    prompts = list_prompts()
    assert prompts["test.judge"] is JudgePrompt and prompts["test.split"] is SplitPrompt
    assert "test.judge (v1): Passage -> Verdict" in JudgePrompt().describe()
    with pytest.raises(TypeError, match="example 0 must be"):
        JudgePrompt(examples=[(Passage(text="a"), Statements(statements=[]))])
    with pytest.raises(TypeError, match="used by both"):

        class Clash(Prompt[Passage, Verdict]):
            name = "test.judge"


async def test_sync_twin_works_inside_a_running_event_loop(stub, chat, engine):
    assert asyncio.get_running_loop().is_running()
    verdict = JudgePrompt().run_sync(chat, Passage(text="inside a loop"), engine=engine)
    assert isinstance(verdict, Verdict)
    assert SplitPrompt().run_sync("offline", Passage(text="A. B."), engine=engine).statements == ["A", "B"]


def test_sync_calls_then_concurrent_async_calls_on_keep_alive_connections(stub, chat, tmp_path):
    """The failure mode of reusing one pooled client across event loops must not happen here."""
    engine = CallEngine(cache=False)
    for i in range(50):
        assert isinstance(JudgePrompt().run_sync(chat, Passage(text=f"sync {i}"), engine=engine), Verdict)

    async def many():
        return await asyncio.gather(
            *(JudgePrompt().run(chat, Passage(text=f"async {i}"), engine=engine) for i in range(200))
        )

    assert len(asyncio.run(many())) == 200  # a new event loop of the caller's own
    usage = engine.usage["test.judge"]
    assert (usage.calls, usage.retries, usage.errors) == (250, 0, 0)
    assert len(stub.chat_requests) == 250 and all(r.status == 200 for r in stub.chat_requests)
    assert stub.connections_opened < 250  # connections were kept alive and reused


def test_a_model_the_caller_already_used_on_its_own_loop_still_works(stub, tmp_path):
    """langchain-openai pools one async client per base URL; the engine must not inherit it."""
    from langchain_openai import ChatOpenAI

    own = ChatOpenAI(base_url=stub.base_url, api_key="sk-caller", model="caller", max_retries=0)

    async def callers_own_use():
        return [(await own.ainvoke("hello")).content for _ in range(2)]

    # the caller's loop pools a connection in the shared client, then closes
    assert asyncio.run(callers_own_use()) == ["stub answer"] * 2
    engine = CallEngine(cache=False)
    verdicts = [JudgePrompt().run_sync(own, Passage(text=f"after {i}"), engine=engine) for i in range(3)]
    assert all(isinstance(v, Verdict) for v in verdicts)
    usage = engine.usage["test.judge"]
    assert (usage.calls, usage.errors) == (3, 0)
    assert own.http_async_client is None  # the caller's object is untouched


class _ProviderModel(GenericFakeChatModel):
    """A non-OpenAI chat model with its own structured output, as provider packages have."""

    supported: tuple[str, ...] = ("json_schema", "function_calling")
    asked: list = []

    def with_structured_output(self, schema, *, include_raw=False, method="function_calling", **kwargs):
        from langchain_core.runnables import RunnableLambda

        self.asked.append(method)
        if method not in self.supported:
            raise ValueError(f"unsupported method {method!r}")
        return self | RunnableLambda(lambda message: {"raw": message, "parsed": None, "parsing_error": None})


async def test_non_openai_models_use_their_own_structured_output_json_schema_first(engine):
    model = _ProviderModel(messages=iter([AIMessage(json.dumps(GOOD))]), asked=[])
    assert await JudgePrompt().run(model, Passage(text="p"), engine=engine) == Verdict(**GOOD)
    assert model.asked == ["json_schema"]


async def test_non_openai_models_fall_back_to_tool_calling(engine):
    call = AIMessage("", tool_calls=[{"name": "Verdict", "args": GOOD, "id": "call_1"}])
    model = _ProviderModel(messages=iter([call]), supported=("function_calling",), asked=[])
    assert await JudgePrompt().run(model, Passage(text="q"), engine=engine) == Verdict(**GOOD)
    assert model.asked == ["json_schema", "function_calling"]
    assert engine.usage["test.judge"].calls == 1  # the refused method cost no request


def test_spec_strings_and_discarded_models_do_not_pile_up_clients(stub, monkeypatch):
    import gc

    from langchain_openai import ChatOpenAI

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-spec")
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    engine = CallEngine(cache=False)
    for i in range(5):  # the same spec string each time: one model, one private client
        JudgePrompt().run_sync("openai:stub-model", Passage(text=f"spec {i}"), engine=engine)
    assert len(engine._clients) == 1 and stub.connections_opened <= 2
    for i in range(5):  # fresh model objects that the caller drops: their clients go with them
        model = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-spec", model="stub-model", max_retries=0)
        JudgePrompt().run_sync(model, Passage(text=f"object {i}"), engine=engine)
        del model
        gc.collect()
    assert len(engine._clients) <= 2


def test_a_raw_line_break_inside_a_json_string_is_read_not_refused():
    """llama.cpp's JSON grammar lets a model write a literal newline or tab inside a string."""
    from groundset.core.structured import load_json

    value, problem = load_json('{"supported": true, "reason": "line one\nline two\tend"}')
    assert problem == "" and value["reason"] == "line one\nline two\tend"


async def test_an_answer_cut_off_at_the_length_limit_is_repaired_asking_for_brevity(stub, chat, engine):
    stub.push(Reply.cut_off('{"supported": true, "reason": "It says so, and then it goes on and on'))
    assert await JudgePrompt().run(chat, Passage(text="long"), engine=engine) == Verdict(
        supported=True, reason="stub"
    )
    repair = stub.chat_requests[1].body["messages"][-1]["content"]
    assert "cut off at the length limit" in repair and engine.usage["test.judge"].repairs == 1


async def test_an_answer_that_copies_the_worked_example_is_repaired(stub, chat, engine):
    """A small model may answer with the example's output word for word, whatever the input."""
    stub.push(Reply.json({"supported": True, "reason": "A fact."}), Reply.json(GOOD))
    assert await JudgePrompt().run(chat, Passage(text="Grafana draws graphs."), engine=engine) == Verdict(
        **GOOD
    )
    # Asked afresh without the examples (shown them again, such a model copies them again).
    again = stub.chat_requests[1].body["messages"]
    assert len(again) == 2 and "Example 1" not in again[0]["content"]
    assert "Example 1" in stub.chat_requests[0].body["messages"][0]["content"]
    # The example's own input may get the example's answer.
    stub.push(Reply.json({"supported": True, "reason": "A fact."}))
    same = await JudgePrompt().run(chat, Passage(text="Prometheus scrapes targets."), engine=engine)
    assert same.reason == "A fact." and len(stub.chat_requests) == 3


async def test_a_required_text_left_blank_is_repaired(stub, chat, engine):
    """A small model may fill the schema with "": an empty reference must not become a sample."""
    stub.push(Reply.json({"supported": True, "reason": "  "}), Reply.json(GOOD))
    assert await JudgePrompt().run(chat, Passage(text="blank"), engine=engine) == Verdict(**GOOD)
    assert "reason is empty" in stub.chat_requests[1].body["messages"][-1]["content"]


async def test_a_server_other_than_openai_gets_max_tokens_it_reads(stub, engine):
    """The OpenAI client sends max_completion_tokens, which llama.cpp's server ignores: a looping small
    model then writes until its context is full. Other servers get max_tokens too (1024 by default)."""
    from langchain_openai import ChatOpenAI

    limited = ChatOpenAI(model="m", api_key="k", base_url=stub.base_url, max_tokens=300, max_retries=0)
    await JudgePrompt().run(limited, Passage(text="a"), engine=engine)
    assert stub.chat_requests[-1].body["max_tokens"] == 300
    default = ChatOpenAI(model="m", api_key="k", base_url=stub.base_url, max_retries=0)
    await JudgePrompt().run(default, Passage(text="b"), engine=engine)
    assert stub.chat_requests[-1].body["max_tokens"] == 1024


async def test_a_summary_cut_off_at_the_length_limit_keeps_its_whole_sentences(stub, chat, engine):
    """SmolLM2-135M at max_tokens=128 wrote past the limit on every summary: the whole sentences are a
    summary, kept without a second request, counted as a fallback and cached like any answer."""
    from groundset.kg.prompts import DocumentSummary, DocumentText, SummaryPrompt

    cut = (
        '```json\n{"summary": "Prometheus scrapes targets over HTTP. Each target is an instance of a job. The'
    )
    stub.push(Reply.cut_off(cut))
    doc = DocumentText(title="Jobs and instances", text="In Prometheus terms, an endpoint you can scrape ...")
    first = await SummaryPrompt().run(chat, doc, engine=engine)
    assert first == DocumentSummary(
        summary="Prometheus scrapes targets over HTTP. Each target is an instance of a job.", themes=[]
    )
    usage = engine.usage.total()
    assert len(stub.chat_requests) == 1 and usage.fallbacks == 1 and usage.repairs == 0
    assert await SummaryPrompt().run(chat, doc, engine=engine) == first  # from the cache
    assert len(stub.chat_requests) == 1 and engine.usage.total().cache_hits == 1
    # cut inside the themes: the summary is whole, the last theme may not be
    stub.push(Reply.cut_off('{"summary": "Targets are scraped.", "themes": ["scraping", "jobs", "inst'))
    other = DocumentText(title="Scraping", text="Targets are scraped.")
    assert await SummaryPrompt().run(chat, other, engine=engine) == DocumentSummary(
        summary="Targets are scraped.", themes=["scraping", "jobs"]
    )
    # nothing whole to keep: asked again, more briefly
    stub.push(
        Reply.cut_off('{"summary": "The document explains how the'),
        Reply.json({"summary": "Short.", "themes": ["x"]}),
    )
    third = DocumentText(title="Third", text="Something else entirely.")
    assert (await SummaryPrompt().run(chat, third, engine=engine)).summary == "Short."
    assert "cut off at the length limit" in stub.chat_requests[-1].body["messages"][-1]["content"]
