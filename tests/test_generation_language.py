"""Test sets in the corpus's language: questions, references and personas follow the documents'
language offline and through a model, and ``language=`` forces one.

Corpora: tests/data/zh-docs and tests/data/de-docs (written for these tests, CC0; see their
READMEs), and the Japanese, French and Spanish passages of tests/data/languages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from groundset.kg import build_knowledge_graph
from groundset.languages import WORDINGS, wording
from groundset.languages.words import word_set
from groundset.personas import PersonaInput, PersonaPrompt, generate_personas
from groundset.personas.language import check_language, language_label, majority_language
from groundset.personas.nouns import cjk_share
from groundset.personas.prompts import offline_persona
from groundset.samples.testset import TestsetSample
from groundset.synthesizers import QualityGate, TestsetGenerator
from groundset.synthesizers.questions.local import local_question
from groundset.synthesizers.questions.prompts import QueryInput, QueryPrompt
from groundset.synthesizers.questions.styles import STYLES
from groundset.text.language import detect_language

from .openai_stub import Reply
from .verdicts import for_keys

DATA = Path(__file__).parent / "data"
ZH_DOCS = DATA / "zh-docs"
DE_DOCS = DATA / "de-docs"
SIZE = 8
ENGLISH_TEMPLATE_WORDS = re.compile(
    r"\b(?:what|how|which|why|does|according|docs|documentation say|someone)\b", re.IGNORECASE
)
GERMAN_WORDS = word_set(
    "was wie welche welcher wofür worin als laut zu frage dokumentation bedeutung standardwert dauer wert "
    "anforderungen funktion zusammenhang beschreibung unterschied überblick"
)


def build(folder: Path):
    return build_knowledge_graph(folder, exclude=["README.md"]).kg


@pytest.fixture(scope="module")
def zh_graph():
    return build(ZH_DOCS)


def questions(testset) -> list[str]:
    return [sample.user_input for sample in testset]


def assert_chinese(texts: list[str]) -> None:
    assert texts
    for text in texts:
        assert cjk_share(text) >= 0.5, text


# -- offline --------------------------------------------------------------------------------------


def test_offline_chinese_docs_give_a_chinese_test_set(zh_graph):
    testset = TestsetGenerator().generate(zh_graph, SIZE, seed=1)
    assert len(testset) >= SIZE - 2
    assert_chinese(questions(testset))
    assert all(detect_language(s.reference) == "zh" for s in testset)  # verbatim: paths and names too
    personas = testset.metadata["personas"]
    assert_chinese([p["name"] for p in personas] + [p["role_description"] for p in personas])
    assert {s.synthesizer for s in testset} >= {"single_hop_specific", "multi_hop_specific"}
    for sample in testset:
        question = sample.user_input
        if sample.style != "web_search":  # a search query separates its keywords; a sentence does not
            assert not re.search(r"[\u4e00-\u9fff] +[\u4e00-\u9fff]", question), question
        assert not ENGLISH_TEMPLATE_WORDS.search(question), question


def test_offline_german_docs_give_german_questions():
    testset = TestsetGenerator().generate(build(DE_DOCS), 6, seed=2)
    assert len(testset) >= 4
    for question in questions(testset):
        assert not ENGLISH_TEMPLATE_WORDS.search(question), question
        assert set(re.findall(r"\w+", question.casefold())) & GERMAN_WORDS, question
    names = [p["name"] for p in testset.metadata["personas"]]
    assert all(" für " in name for name in names), names


@pytest.mark.parametrize("code", ["ja", "fr", "es"])
def test_offline_questions_in_japanese_french_and_spanish(code):
    testset = TestsetGenerator().generate(build(DATA / "languages" / code), 5, seed=3)
    assert len(testset) >= 3
    for question in questions(testset):
        assert not ENGLISH_TEMPLATE_WORDS.search(question), question
    if code == "ja":
        assert_chinese(questions(testset))  # kana and kanji: CJK
        assert_chinese([p["name"] for p in testset.metadata["personas"]])


def test_language_en_forces_english_templates_on_chinese_docs(zh_graph):
    testset = TestsetGenerator(language="en").generate(zh_graph, 6, seed=1)
    assert len(testset) >= 4
    for sample in testset:
        if sample.style != "web_search":
            assert re.search(r"\b(?:what|how|which|why)\b", sample.user_input, re.IGNORECASE), (
                sample.user_input
            )
    names = [p["name"] for p in testset.metadata["personas"]]
    assert all(re.match(r"[A-Z][a-z]+ ", name) for name in names), names


def test_language_override_is_validated_with_the_supported_codes(zh_graph):
    with pytest.raises(ValueError, match=r"unsupported language 'klingon'.*\bzh\b.*\bja\b"):
        TestsetGenerator(language="klingon")
    with pytest.raises(ValueError, match="unsupported language 'xx'"):
        generate_personas(zh_graph, 2, language="xx")
    assert check_language("zh-CN") == "zh" and check_language("deu") == "de" and check_language(None) is None
    assert language_label("zh") == "zh (Chinese)"
    assert majority_language(["zh", "en", "zh"]) == "zh" and majority_language(["de", "en"]) == "de"


def test_forced_language_writes_personas_and_questions_in_it(zh_graph):
    personas = generate_personas(zh_graph, 2, language="de")
    assert all(" für " in p.name for p in personas)
    testset = TestsetGenerator(language="de").generate(zh_graph, 4, seed=5)
    assert all(not ENGLISH_TEMPLATE_WORDS.search(q) for q in questions(testset))


# -- through a model (the stub) ---------------------------------------------------------------------


def _data(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def answering_in_the_language(body: dict) -> Reply | None:
    """A model that writes what the offline forms write for the same input: it must get the language
    from the request (the offline forms read it from there too)."""
    data = _data(body)
    if "summaries" in data:
        return Reply.json(PersonaPrompt().offline(PersonaInput(**data)).model_dump())
    if "contexts" in data and "kind" in data:
        return Reply.json(QueryPrompt().offline(QueryInput(**data)).model_dump())
    if "statements" in data:
        return Reply.json(for_keys(data["statements"], True, "stated"))
    return None


def test_model_prompts_ask_for_the_corpus_language(zh_graph, stub, chat, openai_embeddings, engine):
    stub.on_chat(answering_in_the_language)
    testset = TestsetGenerator(chat, openai_embeddings, engine=engine).generate(zh_graph, SIZE, seed=1)
    assert len(testset) >= SIZE - 2
    assert_chinese(questions(testset))
    personas = testset.metadata["personas"]
    assert_chinese([p["name"] for p in personas] + [p["role_description"] for p in personas])
    bodies = [r.body for r in stub.chat_requests]
    drafts = [b for b in bodies if "contexts" in _data(b) and "kind" in _data(b)]
    readers = [b for b in bodies if "summaries" in _data(b)]
    assert drafts and readers
    for body in drafts + readers:
        assert _data(body)["language"] == "zh (Chinese)"
        assert "`language`" in body["messages"][0]["content"]


# -- the quality gate ------------------------------------------------------------------------------


def _sample(question: str, reference: str) -> TestsetSample:
    context = "超时时间是单次检查最多等待的时间，默认值为 5 秒。超时时间必须小于检查间隔。"
    return TestsetSample.create(
        user_input=question,
        reference=reference,
        reference_contexts=[context],
        reference_context_ids=["c1"],
        synthesizer="single_hop_specific",
        terms=["超时时间"],
    )


async def test_the_gate_rejects_a_chinese_question_that_holds_its_answer():
    gate = QualityGate(None)
    reference = "超时时间是单次检查最多等待的时间，默认值为 5 秒。"
    leaking = _sample("超时时间是单次检查最多等待的时间，默认值为 5 秒吗？", reference)
    assert await gate.check(leaking) == "trivial: question contains its answer"
    assert await gate.check(_sample("超时时间的默认值是多少？", reference)) is None


# -- templates and styles ----------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(WORDINGS))
@pytest.mark.parametrize("style", STYLES)
def test_every_style_keeps_the_term_and_the_language(code, style):
    words = wording(code)
    term, *labels = {
        "zh": ("超时时间", "探针配置", "告警规则", "数据存储"),
        "ja": ("タイムアウト", "プローブ設定", "アラート", "データ保存"),
        "de": ("Zeitlimit", "Sonden", "Alarme", "Speicher"),
        "fr": ("délai", "Sondes", "Alertes", "Stockage"),
        "es": ("plazo", "Sondas", "Alertas", "Almacenamiento"),
    }[code]
    for length in ("short", "medium", "long"):
        for kind, terms in (
            ("single_hop_specific", [term]),
            ("multi_hop_specific", [term, *labels[:2]]),
            ("multi_hop_abstract", [term, *labels]),
        ):
            question = local_question(
                words, kind, terms, [f"{term} 30 s."], style=style, length=length, seed=7, scope="Orbiscope"
            )
            assert term.casefold() in question.casefold(), question
            assert not ENGLISH_TEMPLATE_WORDS.search(question), question
            if code in ("zh", "ja"):
                assert cjk_share(question) >= 0.5, question


def test_chinese_and_japanese_questions_read_naturally():
    zh, ja = wording("zh"), wording("ja")
    question = local_question(
        zh, "single_hop_specific", ["HTTP 探针"], ["HTTP 探针的默认值为 30 秒。"], length="short"
    )
    assert question.endswith("？") and "HTTP 探针" in question and "  " not in question
    plain = local_question(ja, "single_hop_specific", ["保持期間"], ["保持期間は15日です。"], length="short")
    assert plain.endswith("ですか？") or plain.endswith("ますか？"), plain
    casual = local_question(
        ja, "single_hop_specific", ["保持期間"], ["保持期間は15日です。"], style="poor_grammar"
    )
    assert not casual.endswith("？") and "保持期間" in casual
    typo = [
        local_question(
            zh, "single_hop_specific", ["超时时间"], ["超时时间默认为 5 秒。"], style="misspelled", seed=s
        )
        for s in range(6)
    ]
    perfect = local_question(zh, "single_hop_specific", ["超时时间"], ["超时时间默认为 5 秒。"], seed=0)
    assert any(t != perfect for t in typo) and all("超时时间" in t for t in typo)


@pytest.mark.parametrize("code", ["zh", "ja", "de", "fr", "es"])
def test_offline_personas_are_written_in_the_language(code):
    topics = {
        "zh": (["告警规则", "通知渠道", "静默"], ["告警规则描述在什么情况下需要通知值班人员。"]),
        "ja": (["アラートルール", "通知チャネル", "サイレンス"], ["アラートルールは通知の条件を決めます。"]),
        "de": (
            ["Alarmregel", "Benachrichtigungskanal", "Stummschaltung"],
            ["Eine Alarmregel löst Alarme aus."],
        ),
        "fr": (
            ["règles d'alerte", "notifications", "astreinte"],
            ["Les règles d'alerte décrivent les pannes."],
        ),
        "es": (["reglas de alerta", "notificaciones", "guardia"], ["Las reglas de alerta describen fallos."]),
    }[code]
    persona = offline_persona(*topics, language=code)
    assert persona == offline_persona(*topics, language=code)  # deterministic
    if code in ("zh", "ja"):
        assert cjk_share(persona.name) >= 0.5 and cjk_share(persona.role_description) >= 0.5
    else:
        assert not ENGLISH_TEMPLATE_WORDS.search(persona.role_description)
        assert not re.search(r"\b(?:running|working|with|wants)\b", persona.name + persona.role_description)
    english = offline_persona(*topics)
    assert english != persona


def test_french_questions_elide_que_and_de_before_a_vowel():
    from groundset.synthesizers.questions.local import tidy

    words = wording("fr")
    assert tidy(words, "En tant que ingénieur, quel est le délai de Orbiscope ?") == (
        "En tant qu'ingénieur, quel est le délai d'Orbiscope ?"
    )
    assert tidy(words, "Quelle est la durée de la sonde ?") == "Quelle est la durée de la sonde ?"
