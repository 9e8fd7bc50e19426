"""The out_of_scope kind: questions near the corpus's topics whose answer is not in it, offline on the real
Prometheus docs and through a model (the stub), with the check that no likely chunk answers them; offline
in Chinese and German too (tests/data/zh-docs, de-docs) and in French, Spanish and Japanese (the passages
of tests/data/languages)."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from groundset.core import CallEngine
from groundset.kg import build_knowledge_graph
from groundset.languages.words import word_set
from groundset.personas import Persona
from groundset.personas.language import language_label
from groundset.personas.nouns import cjk_share
from groundset.samples.testset import Testset, TestsetSample
from groundset.synthesizers import QualityGate, TestsetGenerator
from groundset.synthesizers.kinds.out_of_scope.evidence import ChunkIndex, answers
from groundset.synthesizers.kinds.out_of_scope.prompts import (
    ASPECT_BY_KEY,
    ASPECTS,
    LOCAL_ASPECTS,
    REFUSAL_FORMS,
    OutOfScopeInput,
    OutOfScopePrompt,
    is_refusal,
    refusal_reference,
)
from groundset.synthesizers.kinds.out_of_scope.synthesizer import (
    ANSWER_FOUND,
    OutOfScopeQuerySynthesizer,
    fitting_aspects,
    of_the_family,
    supporting_chunks,
)
from groundset.synthesizers.questions.styles import LENGTHS, STYLES
from groundset.synthesizers.scenarios.scenario import PersonaPool
from groundset.text.language import detect_language, script_language

from .openai_stub import Reply

ZH_DOCS = Path(__file__).parent / "data" / "zh-docs"
SIZE = 10
IN_CORPUS = {
    "question": "Which port does Prometheus listen on by default?",
    "missing": "which port Prometheus listens on by default",
    "candidate_answer": "Prometheus listens on port 9090 by default.",
}
PERSONA = Persona(
    name="SRE running alerting for several teams",
    role_description="Keeps the alerting pipeline healthy and answers the pages it sends.",
)


@pytest.fixture(scope="module")
def graph(prometheus_graph):
    return prometheus_graph


@pytest.fixture(scope="module")
def offline_set(graph):
    engine = CallEngine(cache=False)
    synth = OutOfScopeQuerySynthesizer("offline", engine=engine)
    return TestsetGenerator(llm="offline", engine=engine).generate(graph, SIZE, [(synth, 1.0)], seed=0)


@pytest.fixture(scope="module")
def zh_graph():
    return build_knowledge_graph(ZH_DOCS, exclude=["README.md"]).kg


def _data(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def _states(candidate: str, passage: str) -> bool:
    """The scripted judge: a passage supports a candidate answer when it holds every number of it."""
    numbers = re.findall(r"\d+", candidate)
    return bool(numbers) and all(number in passage for number in numbers)


def scripted_model(in_corpus_once: bool = False):
    """Writes an out-of-scope question about the term (in Chinese when asked for Chinese), or once the
    in-corpus question; judges each passage by ``_states``."""
    used = threading.Event()
    if not in_corpus_once:
        used.set()

    def answer(body: dict) -> Reply | None:
        data = _data(body)
        if "refusal_form" in data:
            term = data["term"]
            if not used.is_set():
                used.set()
                return Reply.json(IN_CORPUS)
            if data["language"].startswith("zh"):
                return Reply.json(
                    {
                        "question": f"{term}有没有官方的安卓手机应用？",
                        "missing": f"{term}是否有官方的安卓手机应用",
                        "candidate_answer": f"有，{term}的官方应用支持安卓手机。",
                    }
                )
            return Reply.json(
                {
                    "question": f"Is there an official Android app for {term}?",
                    "missing": f"whether there is an official Android app for {term}",
                    "candidate_answer": f"Yes, the official {term} app for Android shows its alerts.",
                }
            )
        if "passages" in data:
            candidate = data["candidate_answer"]
            return Reply.json(
                {
                    key: {"verdict": _states(candidate, text), "reason": "scripted"}
                    for key, text in data["passages"].items()
                }
            )
        return None

    return answer


def assert_declinable(sample: TestsetSample, graph) -> None:
    assert sample.synthesizer == "out_of_scope"
    assert sample.expected_behaviour == "refuse"
    assert sample.reference_contexts == [] and sample.reference_context_ids == []
    assert len(sample.distractor_context_ids) >= 1
    assert [graph.get(n)["text"] for n in sample.distractor_context_ids] == sample.distractor_contexts
    assert sample.source_documents == list(
        dict.fromkeys(graph.get(n)["source"] for n in sample.distractor_context_ids)
    )
    assert is_refusal(sample.reference)


# -- offline -------------------------------------------------------------------------------------------


def test_offline_gives_questions_to_decline_that_no_chunk_answers(graph, offline_set):
    # fewer than asked: only the product and its own tools are asked about in English (below)
    assert 6 <= len(offline_set) <= SIZE
    assert offline_set.counts("synthesizer") == {"out_of_scope": len(offline_set)}
    topics = {aspect.topic for aspect in ASPECTS}
    for sample in offline_set:
        assert_declinable(sample, graph)
        assert sample.reference.startswith("The documentation does not say ")
        term = sample.terms[0]
        assert term.casefold() in sample.user_input.casefold(), (term, sample.user_input)
        assert term.casefold() in sample.reference.casefold()  # the reference names what was asked
        assert sample.terms[1] in topics
        # a corpus term: one of the entities or key phrases of a chunk the question stays near
        named = {
            t.casefold()
            for node in sample.distractor_context_ids
            for t in [*graph.get(node).get("entities", []), *graph.get(node).get("keyphrases", [])]
        }
        assert term.casefold() in named
        assert supporting_chunks(graph, sample.user_input, terms=sample.terms) == [], sample.user_input
    # each term once, but the product once per aspect
    assert len({(s.terms[0].casefold(), s.terms[1]) for s in offline_set}) == len(offline_set)
    others = [s.terms[0] for s in offline_set if s.terms[0] != "Prometheus"]
    assert len(others) == len(set(others))
    assert len({s.terms[1] for s in offline_set}) >= 4  # and several aspects


def test_offline_english_asks_only_of_the_product_and_its_tools(offline_set):
    """Readers kept 6 of 46 stock questions about other terms ("Is health insurance covered by any
    patents?", "Which vendors sell a support contract for Docker?")."""
    terms = {s.terms[0] for s in offline_set}
    assert all(of_the_family(t, "Prometheus") for t in terms), terms
    assert any(t != "Prometheus" for t in terms)  # Node Exporter, Alertmanager, ...
    for term in (
        "Docker",
        "docker container",
        "health insurance",
        "Hiring Manager",
        "reverse proxy",
        "Sphinx",
        "TCP Server",  # Node.js's net page: "Is there an official mobile app to use TCP Server?" (readers)
        "HTTP Server",
    ):
        assert not of_the_family(term, "Prometheus"), term
    for term in (
        "Alertmanager",
        "Pushgateway",
        "Node Exporter",
        "Blackbox Exporter",
        "prometheus",
        "Prometheus Server",
        "JMX Exporter",
    ):
        assert of_the_family(term, "Prometheus"), term


def test_offline_samples_round_trip_and_become_refusals_to_score(offline_set, tmp_path):
    path = tmp_path / "testset.jsonl"
    offline_set.to_jsonl(path)
    again = Testset.from_jsonl(path)
    assert again == offline_set
    dataset = again.to_evaluation_dataset()
    assert len(dataset) == len(offline_set)
    for item, sample in zip(dataset, again, strict=True):
        assert item.expected_behaviour == "refuse"
        assert item.user_input == sample.user_input and item.reference == sample.reference
        assert item.metadata["distractor_context_ids"] == sample.distractor_context_ids


def test_supporting_chunks_finds_what_the_corpus_does_answer(graph):
    found = supporting_chunks(graph, IN_CORPUS["question"], terms=["Prometheus"])
    assert any("9090" in graph.get(node)["text"] for node in found)
    # an installer question about a term whose chunks speak of Windows: the aspect's words give it away
    windows = supporting_chunks(graph, "Is there a Windows installer for Prometheus?", terms=["Prometheus"])
    assert windows and all(re.search(r"(?i)windows|installer", graph.get(n)["text"]) for n in windows)
    # who created Prometheus: the overview says it (SoundCloud, 2012), by words the question never uses
    created = "Who originally created Prometheus, and in which year did its development start?"
    found = supporting_chunks(graph, created, terms=["Prometheus"])
    assert any("SoundCloud" in graph.get(node)["text"] for node in found)
    # and what it does not answer
    question = "How much does a commercial licence for the Pushgateway cost per server?"
    assert supporting_chunks(graph, question, terms=["Pushgateway"]) == []


async def test_the_check_rejects_trivial_and_answered_questions_offline(graph):
    synth = OutOfScopeQuerySynthesizer("offline")
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    gate = QualityGate(None)
    passing = []
    for scenario in synth.scenarios(graph, 5, pool, random.Random(3)):  # the gate keeps most drafts
        sample = await synth.generate(scenario)
        if await synth.check(gate, sample, scenario) is None:
            passing.append((scenario, sample))
    assert len(passing) >= 3
    scenario, sample = passing[0]
    short = sample.model_copy(update={"user_input": "Alertmanager price?"})
    assert await synth.check(gate, short, scenario) == "trivial: question too short"
    answered = sample.model_copy(update={"user_input": IN_CORPUS["question"], "terms": ["Prometheus"]})
    assert await synth.check(gate, answered, scenario) == ANSWER_FOUND


def test_a_forced_language_without_templates_is_not_asked_offline(zh_graph):
    """Italian has no offline templates: no English (nor any) question around the Chinese text."""
    synth = OutOfScopeQuerySynthesizer("offline", language="it")
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    assert synth.scenarios(zh_graph, 5, pool, random.Random(0)) == []


def test_the_offline_prompt_names_the_term_and_what_was_asked():
    data = OutOfScopeInput(
        task="",
        persona="SRE: runs alerting",
        term="Alertmanager",
        contexts=["The Alertmanager groups alerts."],
        refusal_form="",
        aspect="licence_price",
        tool=True,
        style="perfect_grammar",
        length="short",
    )
    draft = OutOfScopePrompt().offline(data)
    assert "Alertmanager" in draft.question and draft.question.endswith("?")
    assert draft.missing.startswith(("how much", "whether", "what")) and "Alertmanager" in draft.missing
    assert refusal_reference(draft.missing, "en") == f"The documentation does not say {draft.missing}."
    assert refusal_reference("超时时间的收费标准", "zh") == "文档没有说明超时时间的收费标准。"
    assert is_refusal("文档没有说明超时时间的收费标准。") and not is_refusal("The default is 15 days.")


# -- through a model (the stub) --------------------------------------------------------------------------


def test_a_model_writes_ten_and_the_judge_rejects_an_answer_in_the_corpus(
    graph, stub, chat, openai_embeddings, engine
):
    stub.on_chat(scripted_model(in_corpus_once=True))
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    testset = TestsetGenerator(chat, openai_embeddings, personas=[PERSONA], engine=engine).generate(
        graph, SIZE, [(synth, 1.0)], seed=0
    )
    assert len(testset) == SIZE
    assert testset.metadata["rejections"].get(ANSWER_FOUND) == 1
    for sample in testset:
        assert_declinable(sample, graph)
        assert sample.user_input != IN_CORPUS["question"]
        asked = f"whether there is an official Android app for {sample.terms[0]}"
        assert sample.reference == f"The documentation does not say {asked}."
    bodies = [_data(r.body) for r in stub.chat_requests]
    drafts = [b for b in bodies if "refusal_form" in b]
    verdicts = [b for b in bodies if "passages" in b]
    assert len(drafts) == len(verdicts) >= SIZE + 1  # one judge call per draft
    assert all(d["language"] == "en (English)" and d["idea"] for d in drafts)
    assert any("9090" in text for b in verdicts for text in b["passages"].values())


async def test_the_check_rejects_a_scripted_candidate_that_the_corpus_states(graph, stub, chat, engine):
    stub.on_chat(scripted_model())
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    scenario, other = synth.scenarios(graph, 2, pool, random.Random(5))
    gate = QualityGate(chat, engine)
    stub.push(Reply.json(IN_CORPUS))
    answered = await synth.generate(scenario)
    assert answered.user_input == IN_CORPUS["question"]
    assert await synth.check(gate, answered, scenario) == ANSWER_FOUND
    declined = await synth.generate(other)  # the handler's out-of-scope question
    assert "Android" in declined.user_input
    assert await synth.check(gate, declined, other) is None


def test_a_chinese_folder_is_asked_in_chinese_through_the_model(
    zh_graph, stub, chat, openai_embeddings, engine
):
    stub.on_chat(scripted_model())
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    testset = TestsetGenerator(chat, openai_embeddings, personas=[PERSONA], engine=engine).generate(
        zh_graph, 3, [(synth, 1.0)], seed=1
    )
    assert len(testset) == 3
    for sample in testset:
        assert_declinable(sample, zh_graph)
        assert cjk_share(sample.user_input) >= 0.5, sample.user_input
        assert sample.reference.startswith("文档没有说明") and sample.reference.endswith("。")
    requests = [r.body for r in stub.chat_requests if "refusal_form" in _data(r.body)]
    assert requests and all("`language`" in body["messages"][0]["content"] for body in requests)
    for data in map(_data, requests):
        assert data["language"] == "zh (Chinese)" and data["refusal_form"] == "文档没有说明{missing}。"
        assert cjk_share(data["term"]) >= 0.5, data["term"]  # asked about a term in the text's own script


# -- offline in Chinese, German, French, Spanish and Japanese -----------------------------------------

DE_DOCS = ZH_DOCS.parent / "de-docs"
LANGUAGE_PASSAGES = ZH_DOCS.parent / "languages"
OPENINGS = {code: REFUSAL_FORMS[code].partition("{missing}")[0] for code in ("zh", "de", "fr", "es", "ja")}
ENGLISH_TEMPLATE_WORDS = re.compile(
    r"\b(?:what|how|which|who|does|is there|according|docs|price|cost)\b", re.IGNORECASE
)
GERMAN_WORDS = word_set(
    "wie was wer welche welcher gibt es ist kann ich wann laut frage zur dokumentation lizenz kostet "
    "version änderungen patente schulung benchmarks zuerst vorgeschlagen jahr"
)
LANGUAGE_SIZES = {"zh": 6, "de": 3}  # one sample per chunk: six Chinese pages, three German ones


@pytest.fixture(scope="module")
def de_graph():
    return build_knowledge_graph(DE_DOCS, exclude=["README.md"]).kg


def offline_testset(graph, size: int, seed: int = 0) -> Testset:
    engine = CallEngine(cache=False)
    synth = OutOfScopeQuerySynthesizer("offline", engine=engine)
    return TestsetGenerator(llm="offline", engine=engine).generate(graph, size, [(synth, 1.0)], seed=seed)


def assert_in_language(sample: TestsetSample, graph, code: str) -> None:
    """A refusal sample asked in ``code`` about a term of its chunks, that no likely chunk answers."""
    assert_declinable(sample, graph)
    assert sample.reference.startswith(OPENINGS[code]), sample.reference
    assert detect_language(sample.reference) == code, sample.reference
    term, topic = sample.terms
    assert term.casefold() in sample.user_input.casefold(), (term, sample.user_input)
    assert term in sample.reference
    assert topic in {aspect.topic for aspect in LOCAL_ASPECTS[code].values()}  # the aspect, in the language
    assert not ENGLISH_TEMPLATE_WORDS.search(sample.user_input), sample.user_input
    assert supporting_chunks(graph, sample.user_input, terms=sample.terms) == [], sample.user_input


@pytest.mark.parametrize("seed", [0, 1])
def test_offline_chinese_docs_give_chinese_questions_to_decline(zh_graph, seed):
    testset = offline_testset(zh_graph, 10, seed)
    assert len(testset) == LANGUAGE_SIZES["zh"]
    for sample in testset:
        assert_in_language(sample, zh_graph, "zh")
        assert cjk_share(sample.user_input) >= 0.5, sample.user_input
        assert cjk_share(sample.terms[0]) >= 0.5, sample.terms  # a term in the text's own script
    assert len({s.terms[1] for s in testset}) >= 3  # several aspects


@pytest.mark.parametrize("seed", [0, 1])
def test_offline_german_docs_give_german_questions_to_decline(de_graph, seed):
    testset = offline_testset(de_graph, 10, seed)
    assert len(testset) == LANGUAGE_SIZES["de"]
    for sample in testset:
        assert_in_language(sample, de_graph, "de")
        assert set(re.findall(r"\w+", sample.user_input.casefold())) & GERMAN_WORDS, sample.user_input
        assert sample.reference.startswith("Die Dokumentation sagt nicht, ")


@pytest.mark.parametrize("code", ["fr", "es", "ja"])
def test_offline_french_spanish_and_japanese_passages_are_asked_in_their_language(code):
    graph = build_knowledge_graph(LANGUAGE_PASSAGES / code, exclude=["README.md"]).kg
    testset = offline_testset(graph, 5, seed=3)
    assert len(testset) >= 2  # three passages; a question per passage at most
    for sample in testset:
        assert_in_language(sample, graph, code)
        if code == "ja":
            assert cjk_share(sample.user_input) >= 0.5, sample.user_input
    sentences = [s.user_input for s in testset if s.style != "web_search"]
    assert sentences and all(detect_language(q) == code for q in sentences), sentences


def _with_page(tmp_path: Path, folder: Path, name: str, page: str):
    for path in folder.glob("*.md"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / name).write_text(page, encoding="utf-8")
    return build_knowledge_graph(tmp_path, exclude=["README.md"]).kg


LICENCE_PAGES = {
    "de": (
        "04-lizenz.md",
        "# Lizenz\n\nOrbiscope ist kostenlos. Die Software steht unter der Apache-Lizenz 2.0 und darf "
        "ohne Gebühren auf beliebig vielen Rechnern betrieben werden.\n",
    ),
    "zh": (
        "07-license.md",
        "# 许可证\n\nOrbiscope 是免费软件，采用 Apache 2.0 许可证发布，"
        "可以在任意数量的服务器上使用，不收取任何费用。\n",
    ),
}


@pytest.mark.parametrize("code", ["de", "zh"])
async def test_a_page_stating_the_licence_rejects_the_licence_question(code, tmp_path, de_graph, zh_graph):
    plain = {"de": de_graph, "zh": zh_graph}[code]
    name, page = LICENCE_PAGES[code]
    stated = _with_page(tmp_path, DE_DOCS if code == "de" else ZH_DOCS, name, page)
    licence = LOCAL_ASPECTS[code]["licence_price"]
    draft = OutOfScopePrompt().offline(
        OutOfScopeInput(
            task="",
            persona="SRE: runs alerting",
            term="Orbiscope",
            contexts=[],
            refusal_form=REFUSAL_FORMS[code],
            language=language_label(code),
            aspect="licence_price",
            tool=True,
            length="short",
        )
    )
    terms = ["Orbiscope", licence.topic]
    # Without the page nothing answers the question, and the aspect fits the product's name ...
    assert supporting_chunks(plain, draft.question, draft.candidate_answer, terms=terms) == []
    keys = {a.key for a in fitting_aspects(ChunkIndex.of(plain), "Orbiscope", True, code)}
    assert "licence_price" in keys
    # ... with it, the page answers it (by its words: "kostenlos", "Lizenz"; "免费", "许可证") ...
    found = supporting_chunks(stated, draft.question, draft.candidate_answer, terms=terms)
    assert [stated.get(node)["source"] for node in found] == [name], found
    # ... and the pair is never drawn: the aspect no longer fits the term.
    keys = {a.key for a in fitting_aspects(ChunkIndex.of(stated), "Orbiscope", True, code)}
    assert "licence_price" not in keys and "patents" not in keys  # "Apache" names a licence too
    # The check of a drafted sample says so as well.
    synth = OutOfScopeQuerySynthesizer("offline")
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    scenario = synth.scenarios(stated, 1, pool, random.Random(0))[0]
    sample = await synth.generate(scenario)
    assert await synth.check(QualityGate(None), sample, scenario) is None
    asked = sample.model_copy(update={"user_input": draft.question, "terms": terms})
    assert await synth.check(QualityGate(None), asked, scenario) == ANSWER_FOUND


def test_every_language_words_every_aspect_as_english_does():
    for code, table in LOCAL_ASPECTS.items():
        assert list(table) == [aspect.key for aspect in ASPECTS], code
        for aspect in ASPECTS:
            local = table[aspect.key]
            worded = (local.tool is None, local.concept is None)
            assert worded == (aspect.tool is None, aspect.concept is None), (code, aspect.key)


@pytest.mark.parametrize("code", sorted(LOCAL_ASPECTS))
def test_the_offline_prompt_writes_every_aspect_style_and_length_in_the_language(code):
    term = {"zh": "告警规则", "ja": "アラートルール", "de": "Sonde", "fr": "sonde", "es": "sonda"}[code]
    seen = set()
    for aspect in ASPECTS:
        for tool in (True, False):
            if aspect.wording(tool) is None:
                continue
            name = "Orbiscope" if tool else term
            for style in STYLES:
                for length in LENGTHS:
                    data = OutOfScopeInput(
                        task="",
                        persona="SRE: runs alerting",
                        term=name,
                        contexts=[],
                        refusal_form=REFUSAL_FORMS[code],
                        language=language_label(code),
                        aspect=aspect.key,
                        tool=tool,
                        style=style,
                        length=length,
                        seed=len(seen),
                    )
                    draft = OutOfScopePrompt().offline(data)
                    question = draft.question
                    assert name.casefold() in question.casefold() and "{" not in question, question
                    assert not ENGLISH_TEMPLATE_WORDS.search(question), question
                    reference = refusal_reference(draft.missing, code)
                    assert is_refusal(reference) and reference.startswith(OPENINGS[code])
                    assert name in reference
                    assert name in draft.candidate_answer
                    if code in ("zh", "ja") and style != "web_search":
                        assert script_language(question) == code, question  # Latin names count too
                        assert not re.search(r"[\u4e00-\u9fff] +[\u4e00-\u9fff]", question), question
                    seen.add(question)
    assert len(seen) >= 100  # the styles and lengths change the question


def test_french_elides_before_a_name_that_starts_with_a_vowel():
    data = OutOfScopeInput(
        task="",
        persona="SRE: runs alerting",
        term="Alertmanager",
        contexts=[],
        refusal_form=REFUSAL_FORMS["fr"],
        language=language_label("fr"),
        aspect="next_release",
        tool=True,
        length="short",
    )
    draft = OutOfScopePrompt().offline(data)
    assert "d'Alertmanager" in draft.question and "de Alertmanager" not in draft.question
    assert draft.missing == "quand sortira la prochaine version majeure d'Alertmanager"


@pytest.mark.parametrize(
    ("code", "text", "key", "expected"),
    [
        ("de", "Die Nutzung ist kostenlos; es gilt die Lizenz der Stiftung.", "licence_price", True),
        ("de", "Die Sonde prüft die Adresse alle 30 Sekunden.", "licence_price", False),
        ("de", "Ein Installationsprogramm mit Assistent liegt bei.", "windows_installer", True),
        ("fr", "Une formation de deux jours est proposée.", "training", True),
        ("fr", "La sonde est en cours d'exécution.", "training", False),
        ("es", "La marca de tiempo se guarda con cada muestra.", "patents", False),
        ("es", "Existe una aplicación para el móvil.", "mobile_app", True),
        ("zh", "可以在Windows上运行。", "windows_installer", True),  # a Latin word inside Chinese text
        ("zh", "该项目于2012年开始开发。", "creator", True),
        ("ja", "アプリケーションの設定を変更します。", "mobile_app", False),  # an application, not an app
        ("ja", "スマホのアプリから確認できます。", "mobile_app", True),
    ],
)
def test_answering_words_are_read_in_the_chunk_language(code, text, key, expected):
    assert answers(ASPECT_BY_KEY[key], text, code) is expected
