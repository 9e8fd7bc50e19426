"""The quality gate also checks that the reference answers its question: one ``verdict.sample`` call with a
model (support and "answers" together), structural checks offline (answer slots, focus term, answer shape)."""

from __future__ import annotations

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_openai import ChatOpenAI

from groundset.core import CallEngine
from groundset.core.models import OFFLINE_LLM
from groundset.judges import ANSWERS, BATCH_SIZE, SampleCheckPrompt, SampleToCheck, judge, numbered
from groundset.samples.testset import TestsetSample
from groundset.synthesizers import QualityGate
from groundset.synthesizers.pipeline.quality import NOT_AN_ANSWER, NOT_ANSWERING, UNSUPPORTED
from groundset.synthesizers.questions.offline import answer_sentences, offline_question, offline_reference

from .conftest import FAKE_KEY
from .openai_stub import Reply
from .verdicts import for_keys

STORAGE = "Prometheus stores data on local disk in a custom format. By default, data is kept for 15 days."
OFF_TOPIC_Q = "What is the default retention period?"
GOOD_Q = "Where does Prometheus store its data?"


def sample(question: str, reference: str, context: str = STORAGE, **fields) -> TestsetSample:
    fields.setdefault("synthesizer", "single_hop_specific")
    return TestsetSample.create(
        user_input=question,
        reference=reference,
        reference_contexts=[context],
        reference_context_ids=["c1"],
        **fields,
    )


def judged_input(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def stub_judge(body: dict) -> Reply:
    """A judge that says "answers: false" for the retention question, and supports statements that do not
    mention SSDs."""
    data = judged_input(body)
    verdicts = {
        key: (data["question"] != OFF_TOPIC_Q) if key == ANSWERS else "SSD" not in text
        for key, text in data["statements"].items()
    }
    return Reply.json(for_keys(data["statements"], verdicts, "scripted"))


@pytest.fixture
def llm(stub):
    stub.on_chat(stub_judge)
    return ChatOpenAI(base_url=stub.base_url, api_key=FAKE_KEY, model="stub-model", max_retries=0)


# -- the LLM path, through the stub --------------------------------------------------------------------


async def test_a_reference_that_does_not_answer_is_rejected_by_the_verdict(stub, llm):
    engine = CallEngine(cache=False)
    gate = QualityGate(llm, engine)
    bad = sample(OFF_TOPIC_Q, "Prometheus stores data on local disk.")
    assert await gate.check(bad) == NOT_ANSWERING
    (request,) = stub.chat_requests  # one call for the check
    assert OFF_TOPIC_Q in request.body["messages"][-1]["content"]  # the prompt really asks the question
    assert "gives what the question asks for" in request.body["messages"][0]["content"]
    # every statement is word for word in the context: only "answers" is asked, without the context
    data = judged_input(request.body)
    assert data["statements"] == {ANSWERS: "Prometheus stores data on local disk."} and data["context"] == ""
    assert request.body["response_format"]["json_schema"]["schema"]["required"] == [ANSWERS]

    assert await gate.check(sample(GOOD_Q, "Prometheus stores data on local disk.")) is None
    assert len(stub.chat_requests) == 2
    assert GOOD_Q in stub.chat_requests[1].body["messages"][-1]["content"]
    assert engine.usage["quality.check"].calls == 2


async def test_support_and_answers_are_judged_in_one_call(stub, llm):
    engine = CallEngine(cache=False)
    gate = QualityGate(llm, engine)
    paraphrase = "Prometheus keeps its samples on a local drive. They stay there for two weeks or so."
    assert await gate.check(sample(OFF_TOPIC_Q, paraphrase)) == NOT_ANSWERING
    (request,) = stub.chat_requests
    data = judged_input(request.body)
    assert list(data["statements"]) == [ANSWERS, "1", "2"] and data["context"] == STORAGE
    assert data["statements"][ANSWERS] == paraphrase
    assert request.body["response_format"]["json_schema"]["schema"]["required"] == [ANSWERS, "1", "2"]

    assert await gate.check(sample(GOOD_Q, paraphrase)) is None
    unsupported = "Prometheus keeps its samples on SSD drives. They stay there for two weeks or so."
    assert await gate.check(sample(GOOD_Q, unsupported)) == UNSUPPORTED
    assert len(stub.chat_requests) == 3 and engine.usage["quality.check"].calls == 3


async def test_existing_rejections_still_come_first_and_cost_nothing(stub, llm):
    engine = CallEngine(cache=False)
    gate = QualityGate(llm, engine)
    assert (
        await gate.check(sample("Retention?", "Data is kept for 15 days.")) == "trivial: question too short"
    )
    leak = sample("Is data kept for 15 days by default?", "Data is kept for 15 days by default.")
    assert await gate.check(leak) == "trivial: question contains its answer"
    assert stub.chat_requests == []
    # with a model, answer slots (made for offline templates) are not used: the model's verdict decides
    answered = sample(GOOD_Q, "Prometheus stores data on local disk.")
    assert await gate.check(answered, answer_slots=["30 days", "compaction"]) is None
    (request,) = stub.chat_requests
    assert GOOD_Q in request.body["messages"][-1]["content"]
    unanswered = sample(OFF_TOPIC_Q, "Prometheus stores data on local disk.")
    assert await gate.check(unanswered, answer_slots=["local disk"]) == NOT_ANSWERING
    assert len(stub.chat_requests) == 2


async def test_answers_is_judged_once_in_the_first_batch():
    statements = [f"Statement number {i} holds." for i in range(1, 31)]
    data = SampleToCheck(
        question="q?", statements={**numbered(statements), ANSWERS: "all of it"}, context="c"
    )
    prompt = SampleCheckPrompt()
    assert prompt.keys(data)[0] == ANSWERS  # first whatever the dict order
    first = prompt.batch(data, prompt.keys(data)[:BATCH_SIZE])
    second = prompt.batch(data, prompt.keys(data)[BATCH_SIZE:])
    assert ANSWERS in first.statements and ANSWERS not in second.statements
    assert list(first.statements)[0] == ANSWERS and len(first.statements) == BATCH_SIZE
    # through judge(): two requests, "answers" asked in exactly one of them
    asked: list[list[str]] = []

    def answer(messages: list) -> str:
        keys = list(json.loads(messages[-1].content.removeprefix("Input: "))["statements"])
        asked.append(keys)
        return json.dumps(for_keys(keys, True))

    class Recording(FakeListChatModel):
        def _call(self, messages, stop=None, run_manager=None, **kwargs):  # type: ignore[override]
            return answer(messages)

    judged = await judge(prompt, Recording(responses=[""]), data, engine=CallEngine(cache=False), stage="t")
    assert sorted(len(keys) for keys in asked) == [11, BATCH_SIZE]
    assert sum(keys.count(ANSWERS) for keys in asked) == 1
    assert set(judged.verdicts) == {ANSWERS, *map(str, range(1, 31))}


# -- a LangChain fake chat model -----------------------------------------------------------------------


async def test_a_fake_chat_model_scripts_the_verdict():
    replies = [
        {ANSWERS: {"verdict": False, "reason": "It never gives the period."}},
        {ANSWERS: {"verdict": True, "reason": "It says where."}},
    ]
    fake = FakeListChatModel(responses=[json.dumps(r) for r in replies])
    engine = CallEngine(cache=False)
    gate = QualityGate(fake, engine)
    assert await gate.check(sample(OFF_TOPIC_Q, "Prometheus stores data on local disk.")) == NOT_ANSWERING
    assert await gate.check(sample(GOOD_Q, "Prometheus stores data on local disk.")) is None
    assert engine.usage["quality.check"].calls == 2


# -- offline -------------------------------------------------------------------------------------------

RETENTION = (
    "## Retention\n\nThe retention period defaults to 15 days. Older blocks are removed by compaction."
)


def templated(term: str = "retention period", **fields) -> TestsetSample:
    evidence = answer_sentences(term, RETENTION)
    question = offline_question("single_hop_specific", [term], evidence)
    return sample(question, offline_reference([evidence]), RETENTION, terms=[term], **fields)


@pytest.fixture(params=[OFFLINE_LLM, "offline", None])
def offline_gate(request):
    engine = CallEngine(cache=False)
    return QualityGate(request.param, engine), engine


async def test_offline_a_good_templated_sample_passes_without_a_call(offline_gate):
    gate, engine = offline_gate
    good = templated()
    assert good.reference == "The retention period defaults to 15 days."
    assert await gate.check(good) is None
    assert await gate.check(good, answer_slots=["15 days"]) is None
    assert await gate.check(good, answer_slots=["15  DAY", "retention\nperiods"]) is None  # normalised
    assert engine.usage.total().calls == 0


async def test_offline_a_missing_answer_slot_is_rejected(offline_gate):
    gate, engine = offline_gate
    assert await gate.check(templated(), answer_slots=["30 days"]) == NOT_ANSWERING
    assert await gate.check(templated(), answer_slots=["15 days", "compaction"]) == NOT_ANSWERING
    assert engine.usage.total().calls == 0


async def test_offline_the_focus_term_must_be_in_the_reference(offline_gate):
    gate, _ = offline_gate
    good = templated()
    off_focus = good.model_copy(update={"terms": ["compaction"]})
    assert await gate.check(off_focus) == NOT_ANSWERING
    plural = good.model_copy(update={"terms": ["Retention Periods"]})
    assert await gate.check(plural) is None
    # multi_hop_abstract: terms[0] is a theme; any other term will do, and with none there is no check
    theme_only = good.model_copy(update={"synthesizer": "multi_hop_abstract", "terms": ["storage"]})
    assert await gate.check(theme_only) is None
    themed = good.model_copy(
        update={"synthesizer": "multi_hop_abstract", "terms": ["storage", "compaction", "retention period"]}
    )
    assert await gate.check(themed) is None
    missed = themed.model_copy(update={"terms": ["storage", "compaction", "write-ahead log"]})
    assert await gate.check(missed) == NOT_ANSWERING


@pytest.mark.parametrize(
    "reference",
    [
        "Storage retention",
        "The following flags control how long data is kept:",
        "The retention period <b>defaults</b> to 15 days.",
        "The retention period defaults to 15 days. <!-- check this -->",
        "The retention period is {{ .Retention }} by default.",
        "{% include retention.md %} The retention period defaults to 15 days.",
    ],
)
async def test_offline_headings_list_stubs_and_markup_are_not_answers(offline_gate, reference):
    gate, engine = offline_gate
    context = f"{reference}\n\nThe retention period defaults to 15 days."
    stub_sample = sample("What does this part of the documentation cover?", reference, context)
    assert await gate.check(stub_sample) == NOT_AN_ANSWER
    assert engine.usage.total().calls == 0


async def test_offline_placeholders_are_prose_and_unsupported_text_still_fails(offline_gate):
    gate, engine = offline_gate
    placeholder = "Series are written as <metric name>{<label name>=<label value>} in the docs."
    assert await gate.check(sample("How are time series identified?", placeholder, placeholder)) is None
    made_up = templated().model_copy(update={"reference": "The retention period defaults to 30 days."})
    assert await gate.check(made_up) == UNSUPPORTED  # the lexical judge, offline
    assert engine.usage["quality.check"].offline == 1 and engine.usage.total().calls == 0


async def test_offline_prompt_form_judges_answers_without_a_model():
    prompt = SampleCheckPrompt()
    data = SampleToCheck(
        question=OFF_TOPIC_Q,
        statements={"1": "Data is kept for 15 days.", ANSWERS: "Storage retention"},
        context=STORAGE,
    )
    engine = CallEngine(cache=False)
    verdicts = (await prompt.run(OFFLINE_LLM, data, engine=engine)).by_key()
    assert list(verdicts) == [ANSWERS, "1"]
    assert verdicts["1"].verdict is True and verdicts[ANSWERS].verdict is False
    answering = data.model_copy(update={"statements": {ANSWERS: "The retention period is 15 days."}})
    assert (await prompt.run(OFFLINE_LLM, answering, engine=engine)).by_key()[ANSWERS].verdict is True
    assert engine.usage.total().calls == 0 and engine.usage.total().offline == 2


@pytest.mark.parametrize("reference", ["{{", "---", "## Retention"])
async def test_with_a_model_a_reference_that_is_no_answer_is_rejected_before_any_call(stub, llm, reference):
    """A 135M model wrote the reference "{{" and its own gate verdict let it through: the shape of a
    reference is checked whoever wrote it, for free."""
    gate = QualityGate(llm, CallEngine(cache=False))
    assert await gate.check(sample(GOOD_Q, reference)) == NOT_AN_ANSWER
    assert stub.chat_requests == []


async def test_with_a_model_a_sample_in_another_language_than_asked_is_rejected_before_any_call(stub, llm):
    """Small models answer German documents in English: a sample written in a language other than the one
    asked is rejected for free; a text too short or mixed to tell passes on to the verdict."""
    from groundset.synthesizers.pipeline.quality import WRONG_LANGUAGE, Written

    gate = QualityGate(llm, CallEngine(cache=False))
    german = Written(question="de", reference="de", contexts="de")
    english = sample(GOOD_Q, "Prometheus stores its data on the local disk, in a custom format of its own.")
    assert await gate.check(english, written=german) == WRONG_LANGUAGE
    assert stub.chat_requests == []
    assert await gate.check(english, written=Written(question="en", reference="en")) is None
    deutsch = sample(
        "Wo speichert Prometheus seine Daten?",
        "Prometheus speichert die Daten auf der lokalen Festplatte in einem eigenen Format.",
    )
    assert await gate.check(deutsch, written=german) != WRONG_LANGUAGE
