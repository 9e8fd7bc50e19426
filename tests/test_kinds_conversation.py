"""The situational and conversational question kinds, offline on the Prometheus docs and through the stub.

Situational: each question carries the asker's situation (from the persona) and is still a grounded,
gated single-hop question. Conversational: 2 to 4 turns stored as one sample whose last turn leans on
the earlier ones (it never names the subject), with every turn grounded, through JSONL and into the
evaluation dataset's ``history``.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from groundset.core import CallEngine
from groundset.languages.en import QUERY_STOP_WORDS
from groundset.personas import generate_personas
from groundset.personas.audience import is_plain_reader
from groundset.samples.testset import Testset, TestsetSample
from groundset.samples.turns import Turn
from groundset.synthesizers import QualityGate, TestsetGenerator
from groundset.synthesizers.kinds.conversational.prompts import cause_follow_up
from groundset.synthesizers.kinds.conversational.synthesizer import (
    NO_BACK_REFERENCE,
    ConversationalQuerySynthesizer,
    leans_on_history,
    turn_samples,
)
from groundset.synthesizers.kinds.situational import SituationalQuerySynthesizer
from groundset.synthesizers.scenarios.facts import Fact
from groundset.text.plaintext import plain_text
from groundset.text.stems import stem

from .corpora import PROMETHEUS_DOCS
from .openai_stub import Reply
from .verdicts import for_keys

SIZE = 10
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|my|we|our)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def graph(prometheus_graph):
    return prometheus_graph


@pytest.fixture(scope="module")
def personas(graph):
    return generate_personas(graph, 4)


def _generate(graph, synthesizer, llm="offline", embeddings=None, engine=None, personas=None) -> Testset:
    generator = TestsetGenerator(llm, embeddings, personas, engine=engine or CallEngine(cache=False))
    return generator.generate(graph, SIZE, [(synthesizer, 1.0)], seed=0)


@pytest.fixture(scope="module")
def offline_situational(graph):
    return _generate(graph, SituationalQuerySynthesizer("offline"))


@pytest.fixture(scope="module")
def offline_conversations(graph):
    return _generate(graph, ConversationalQuerySynthesizer("offline"))


def _words(text: str) -> set[str]:
    """Content words as stems: "looks after" in a persona and "I look after" in its situation agree."""
    return {
        stem(w, "en") for w in re.findall(r"[a-z][a-z-]{3,}", text.casefold()) if w not in QUERY_STOP_WORDS
    }


def _grounded(reference: str, contexts: list[str]) -> bool:
    """Every line of the reference is (all but a few words of) the contexts' text."""
    grounding = " ".join(plain_text(c) for c in contexts).casefold()
    for line in reference.split("\n"):
        words = re.findall(r"\w+", line.casefold())
        if not words or sum(w in grounding for w in words) / len(words) < 0.9:
            return False
    return True


def _assert_situational(testset: Testset, graph) -> None:
    assert len(testset) == SIZE
    assert set(testset.counts("synthesizer")) == {"situational"}
    roles = {p["name"]: p["role_description"] for p in testset.metadata["personas"]}
    for sample in testset:
        persona = _words(f"{sample.persona} {roles[sample.persona]}")
        if not is_plain_reader(sample.persona):  # a reader of the product: said by what they do
            assert persona & _words(sample.user_input), (sample.persona, sample.user_input)
        assert sample.reference.strip(" .").casefold() not in sample.user_input.casefold()
        if sample.style != "web_search":  # the situation is told in the first person
            assert FIRST_PERSON.search(sample.user_input), sample.user_input
        assert [graph.get(n)["text"] for n in sample.reference_context_ids] == sample.reference_contexts


def _assert_conversations(testset: Testset, graph, tmp_path) -> None:
    assert len(testset) == SIZE
    assert set(testset.counts("synthesizer")) == {"conversational"}
    for sample in testset:
        assert 2 <= len(sample.history) + 1 <= 4
        assert leans_on_history(sample), [t.user_input for t in sample.history] + [sample.user_input]
        for turn in [*sample.history, sample]:
            assert turn.reference_contexts and turn.reference.strip()
            assert [graph.get(n)["text"] for n in turn.reference_context_ids] == turn.reference_contexts
    path = tmp_path / "conversations.jsonl"
    testset.to_jsonl(path)
    assert Testset.from_jsonl(path) == testset
    dataset = testset.to_evaluation_dataset()
    for sample, row in zip(testset, dataset.samples, strict=True):
        assert row.user_input == sample.user_input and row.reference == sample.reference
        assert len(row.history) == 2 * len(sample.history)
        shown = row.asked()
        assert shown.endswith(sample.user_input)
        assert all(turn.user_input in shown and turn.reference in shown for turn in sample.history)


# -- offline ---------------------------------------------------------------------------------------------


def test_offline_situational_questions_carry_the_persona_and_pass_the_gate(graph, offline_situational):
    _assert_situational(offline_situational, graph)
    for sample in offline_situational:
        assert _grounded(sample.reference, sample.reference_contexts), sample.reference
    assert len(offline_situational.counts("style")) >= 2


def test_offline_english_situations_say_a_goal_or_a_case_never_a_stock_line(graph, offline_situational):
    """Readers failed the stock lines that stood in for a situation ("I have a quick question", "I'm
    looking something up for my work") on two corpora of three: offline in English, only a fact with a
    goal or a case makes a situational question, said as a sentence (no search-box style), and a short
    corpus says so."""
    for sample in offline_situational:
        assert sample.style != "web_search"
        message = sample.user_input.casefold()
        assert not re.search(r"quick question|something up|working on|notes|settle this", message), message
        assert re.search(r"tr[a-z]+ to |i'm using|in my case|\b(?:i|my)\b [a-z]", message), message
        # the misspelled style may double a letter ("what happeens then?")
        assert re.search(r"(?:do|ha+p+e+n+s?|should i|used for)[a-z ]*[?]?$", message), message
    reason = SituationalQuerySynthesizer("offline").shortage(graph)
    assert re.search(r"trying to do or the case they are in, and \d+ of the \d+ facts", reason), reason


async def test_offline_situational_samples_pass_the_default_gate_again(offline_situational):
    gate = QualityGate(None)
    for sample in offline_situational:
        assert await gate.check(sample) is None, sample.user_input


def test_offline_conversations_lean_on_earlier_turns(graph, offline_conversations, tmp_path):
    _assert_conversations(offline_conversations, graph, tmp_path)
    for sample in offline_conversations:
        for turn in [*sample.history, sample]:
            assert _grounded(turn.reference, turn.reference_contexts), turn.reference
    assert len({len(s.history) for s in offline_conversations}) >= 2  # the rng draws different lengths


def test_offline_generation_is_reproducible(graph, offline_conversations):
    again = _generate(graph, ConversationalQuerySynthesizer("offline"))
    assert [s.model_dump() for s in again] == [s.model_dump() for s in offline_conversations]


# -- the back-reference and the gate -------------------------------------------------------------------


def _conversation(last: str, first: str = "What is a gauge?") -> TestsetSample:
    context = "A gauge is a metric that can go up and down. Gauges MUST start at 0."
    return TestsetSample.create(
        user_input=last,
        reference="Gauges MUST start at 0.",
        reference_contexts=[context],
        reference_context_ids=["c1"],
        synthesizer="conversational",
        terms=["gauge"],
        history=[Turn(user_input=first, reference="A gauge is a metric that can go up and down.",
                      reference_contexts=[context], reference_context_ids=["c1"])],
    )  # fmt: skip


def test_leans_on_history_needs_a_named_subject_first_and_a_back_reference_last():
    assert leans_on_history(_conversation("And what must it start at?"))
    assert not leans_on_history(_conversation("What must a gauge start at?"))  # names the subject
    assert not leans_on_history(_conversation("What must gauges start at?"))  # its plural too
    assert not leans_on_history(_conversation("What must be at zero?"))  # refers to nothing
    assert not leans_on_history(_conversation("And what must it start at?", first="What is a metric?"))
    alone = _conversation("And what must it start at?").model_copy(update={"history": []})
    assert not leans_on_history(alone)


async def test_the_conversational_gate_checks_every_turn_and_the_back_reference(offline_conversations):
    synth, gate = ConversationalQuerySynthesizer("offline"), QualityGate(None)
    scenario = SimpleNamespace(
        facts=[], language="en", written="en"
    )  # a scenario without facts: no answer slots to check
    assert await synth.check(gate, _conversation("And what must it start at?"), scenario) is None
    assert (
        await synth.check(gate, _conversation("What must a gauge start at?"), scenario) == NO_BACK_REFERENCE
    )
    unsupported = _conversation("And what must it start at?").model_copy(
        update={"reference": "Gauges start at 42."}
    )
    assert await synth.check(gate, unsupported, scenario) == "reference not supported by its contexts"
    sample = offline_conversations[0]
    plain = turn_samples(sample)
    assert len(plain) == len(sample.history) + 1 and plain[0].user_input == sample.history[0].user_input
    assert all(
        s.user_input.startswith(f"{sample.terms[0]}: ") for s in plain[1:]
    )  # the subject made explicit


def test_a_consequence_is_a_follow_up_only_when_its_condition_opens_with_the_subject():
    def cause(cond: str) -> Fact:
        return Fact(pattern="cause", subject=cond, focus=cond, answer="x", reference=f"If {cond}, x.",
                    slots={"cond": cond, "conj": "if", "form": "effect"})  # fmt: skip

    assert (
        cause_follow_up(cause("a Histogram includes NaN"), "histogram") == "what happens if it includes NaN"
    )
    assert cause_follow_up(cause("native histogram samples are used"), "native histogram sample") == (
        "what happens if they are used"
    )
    assert cause_follow_up(cause("a gauge histogram is followed by a counter"), "gauge") == ""
    assert cause_follow_up(cause("the zero thresholds in the sources differ"), "zero threshold") == ""


# -- through a model (the stub) ------------------------------------------------------------------------


def _data(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", " ".join(plain_text(text).split()))[0]


def writing_by_request(body: dict) -> Reply | None:
    """A model that answers each prompt from its input: conversations keyed by turn (the last turn a
    pronoun question), situations from the persona, every verdict true."""
    data = _data(body)
    if "subject" in data and "turns" in data:
        subject, turns = data["subject"], data["turns"]
        answer = {}
        for i, turn in enumerate(turns, 1):
            reference = (turn.get("fact") or {}).get("reference") or _first_sentence(turn["context"])
            named = _words(subject)
            words = {w for w in _words(reference) if not any(w.startswith(n[:4]) for n in named)}
            word = max(sorted(words) or ["detail"], key=len)
            question = (
                f"What does the documentation say about {subject}?"
                if i == 1
                else (f"And how does it relate to {word}?")
            )
            answer[str(i)] = {"question": question, "reference": reference}
        return Reply.json(answer)
    if "persona" in data and "contexts" in data and "kind" not in data:
        name = data["persona"].split(":")[0]
        fact = (data.get("facts") or [{}])[0]
        return Reply.json(
            {
                "situation": f"I'm a {name.lower()} and right now I'm working on our setup.",
                "question": f"What should I know about {data['terms'][0]}?",
                "reference": fact.get("reference") or _first_sentence(data["contexts"][0]),
            }
        )
    if "statements" in data:
        return Reply.json(for_keys(data["statements"], True, "stated"))
    return None


def test_situational_questions_through_a_model(graph, personas, stub, chat, openai_embeddings, engine):
    stub.on_chat(writing_by_request)
    testset = _generate(graph, SituationalQuerySynthesizer(chat, engine=engine), chat, openai_embeddings,
                        engine, personas)  # fmt: skip
    _assert_situational(testset, graph)
    bodies = [
        r.body for r in stub.chat_requests if "persona" in _data(r.body) and "contexts" in _data(r.body)
    ]
    assert len(bodies) >= SIZE
    assert all(_data(b)["language"] == "en (English)" for b in bodies)
    assert all("first person" in b["messages"][0]["content"] for b in bodies)


def test_conversations_through_a_model(graph, personas, stub, chat, openai_embeddings, engine, tmp_path):
    stub.on_chat(writing_by_request)
    testset = _generate(graph, ConversationalQuerySynthesizer(chat, engine=engine), chat, openai_embeddings,
                        engine, personas)  # fmt: skip
    _assert_conversations(testset, graph, tmp_path)
    requests = [_data(r.body) for r in stub.chat_requests if "subject" in _data(r.body)]
    assert requests and all(2 <= len(d["turns"]) <= 4 for d in requests)
    judged = [_data(r.body) for r in stub.chat_requests if "statements" in _data(r.body)]
    explicit = [d["question"] for d in judged if not d["question"].startswith("What does the documentation")]
    assert explicit and all(
        ": And how does it relate to" in q for q in explicit
    )  # later turns, subject added


def test_a_follow_up_the_first_answer_already_gave_is_no_turn(graph):
    """Node.js's diagnostics_channel page: "What does the class Channel represent?" was answered "... It is
    used to track subscribers and to publish messages ...", then "One more thing: what is it used for?" asked
    it again (two readers). A later turn whose answer an earlier reference holds asks nothing new. Here the
    Prometheus docs' counter definition, its reference going on to what a counter represents."""
    from groundset.synthesizers.kinds.conversational.synthesizer import distinct_turns
    from groundset.synthesizers.scenarios.answer_patterns import match_sentence
    from groundset.synthesizers.scenarios.fact import Fact
    from groundset.synthesizers.scenarios.fact_index import FactIndex

    page = (PROMETHEUS_DOCS / "concepts" / "metric_types.md").read_text(encoding="utf-8")
    assert "A _counter_ is a cumulative metric" in page and "use a counter to represent the number" in page
    defined = "A counter is a cumulative metric that represents a single monotonically increasing counter."
    use = "A counter can be used to represent the number of requests served, tasks completed, or errors."
    said, asked = match_sentence(defined), match_sentence(use)
    assert said is not None and asked is not None
    index = FactIndex.of(graph)
    used = Fact.stated(asked, "counter", use)
    assert not distinct_turns(
        index, ("a", Fact.stated(said, "counter", f"{defined} {use}")), ("b", used), False
    )
    assert distinct_turns(index, ("a", Fact.stated(said, "counter", defined)), ("b", used), False)
