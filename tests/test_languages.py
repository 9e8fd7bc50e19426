"""Languages: detection, sentences, tokens, stop words and phrases per language, and the language
stored on every document node. Passages: tests/data/languages/<code>/ (see the README there)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from langchain_core.documents import Document

from groundset.core import CallEngine
from groundset.documents.loader import load_documents
from groundset.kg import KnowledgeGraph, NodeKind, build_knowledge_graph
from groundset.languages.words import word_set
from groundset.text import language, lexical, nlp, phrases
from groundset.text.entities import EntityExtractor
from groundset.text.language import detect_language, language_code, languages_of, script_language
from groundset.text.lexical import LexicalContext, content_words, critical_terms
from groundset.text.nlp import stop_words, tokens
from groundset.text.phrases import PhraseModel
from groundset.text.plaintext import plain_text
from groundset.text.sentences import SENTENCE_TERMINALS, split_sentences
from groundset.text.textrank import textrank_summary

DATA = Path(__file__).parent / "data" / "languages"
LANGUAGES = ("zh", "ja", "de", "fr", "es", "en")
# With the ``ja`` extra, Japanese tokens are SudachiPy's morphemes, not script runs.
SCRIPT_RUNS = importlib.util.find_spec("sudachipy") is None


def passages(lang: str) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((DATA / lang).glob("*.md"))]


def sentences_of(markdown: str, lang: str | None = None) -> list[str]:
    return split_sentences(plain_text(markdown), lang=lang)


# ----------------------------------------------------------------------------------------------------------
# detection


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_passage_and_its_sentences_are_detected(lang: str) -> None:
    for text in passages(lang):
        assert detect_language(text) == lang
        body = sentences_of(text, lang)[1:]  # the heading alone can be too short to tell
        assert [detect_language(sentence) for sentence in body] == [lang] * len(body)


def test_script_rule_short_text_and_defaults() -> None:
    assert detect_language("数据库") == "zh"
    assert detect_language("データベース") == "ja"
    assert detect_language("時系列データ") == "ja"  # kanji with kana is Japanese
    assert detect_language("데이터베이스") == "ko"
    assert script_language("Prometheus 是一个开源的监控系统") == "zh"
    assert script_language("Prometheus is a monitoring system") is None
    for nothing in ("", "   ", "42 3.14 --", "ok", "x. " * 1000, "```\ncode_only()\n```"):
        assert detect_language(nothing) == "en"
    assert detect_language("", default="de") == "de"
    assert detect_language("Die Daten werden nicht komprimiert und bleiben lesbar.") == "de"


def test_language_codes_are_normalised() -> None:
    assert [language_code(tag) for tag in ("en-US", "zh_Hans", "DE", "pt-BR", "nb", "iw")] == [
        "en", "zh", "de", "pt", "no", "he",
    ]  # fmt: skip
    assert language_code(None) == language_code("") == language_code(7) == "en"
    assert languages_of(["Hello there", "数据库"], None) == ["en", "zh"]
    assert languages_of(["a", "b"], "fr-CA") == ["fr", "fr"]
    assert languages_of(["a", "b"], ["de", None]) == ["de", "en"]
    with pytest.raises(ValueError):
        languages_of(["a", "b"], ["de"])


def test_three_letter_codes_become_two_letter_codes() -> None:
    tags = ("eng", "deu", "ger", "fra", "fre", "spa", "ita", "por", "nld", "dut", "rus", "zho", "chi", "jpn")
    assert [language_code(tag) for tag in tags] == [
        "en", "de", "de", "fr", "fr", "es", "it", "pt", "nl", "nl", "ru", "zh", "zh", "ja",
    ]  # fmt: skip
    more = {"kor": "ko", "pol": "pl", "swe": "sv", "tur": "tr", "ara": "ar", "hin": "hi", "ukr": "uk"}
    assert {tag: language_code(tag) for tag in more} == more
    assert [language_code(tag) for tag in ("ENG-US", "zho_Hans", "cze")] == ["en", "zh", "cs"]
    assert language_code("tlh") == language_code("und") == "en" and language_code("xyz", default="de") == "de"
    assert stop_words("deu") == stop_words("de")
    assert tokens("数据库保存样本。", "zho") == tokens("数据库保存样本。", "zh")
    assert LexicalContext("Die Daten werden nicht komprimiert.", lang="ger").lang == "de"


def test_pipelines_are_cached_per_normalised_code_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nlp, "_trained", lambda code: None)
    fake = lambda code: SimpleNamespace(code=code, max_length=0, pipe_names=["sentencizer"])  # noqa: E731
    monkeypatch.setattr(nlp, "_blank", fake)
    nlp._pipeline.cache_clear()
    try:
        for first in "abcd":
            for second in "abcdefghijklmnopqrstuvwxyz":
                nlp.pipeline(first + second)  # unknown two-letter codes each get a pipeline
        assert nlp._pipeline.cache_info().currsize <= 32
        assert nlp.pipeline("eng").code == "en" and nlp.pipeline("deu") is nlp.pipeline("de-AT")
    finally:
        nlp._pipeline.cache_clear()  # the fakes must not outlive this test


def test_detection_reads_a_bounded_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    huge = "Prometheus stores all of the data as time series in a local database. " * 40_000
    assert detect_language(huge + "数据库" * 10_000) == "en"
    cleaned: list[int] = []
    classified: list[int] = []
    prose = language._prose
    monkeypatch.setattr(language, "_prose", lambda prefix: cleaned.append(len(prefix)) or prose(prefix))
    model = SimpleNamespace(classify=lambda text: classified.append(len(text)) or ("de", 0.99))
    monkeypatch.setattr(language, "_identifier", lambda: model)
    language._detect.cache_clear()
    assert detect_language("Die Daten werden nicht komprimiert und bleiben lange lesbar. " * 40_000) == "de"
    assert cleaned == [language.SAMPLE_CHARS] and classified == [language._MODEL_CHARS]


def test_noise_is_dropped_token_by_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each whitespace-separated token is checked once: the old regex re-scanned a token from every
    position in it, quadratic on Chinese or Japanese prose (no spaces)."""
    checked: list[str] = []
    noisy = language._NOISY
    spy = SimpleNamespace(search=lambda token: checked.append(token) or noisy.search(token))
    monkeypatch.setattr(language, "_NOISY", spy)
    run = "时间序列数据库" * 30_000  # 210,000 characters without a space
    text = f"{run} see prometheus.yml, `x = 1` and a_b <b>or</b> http://x.io [it](u/v) v2.0 ok. 3.14"
    assert language._prose(text).split() == [run, "see", "and", "or", "[it", "ok."]
    tokens_seen = ["see", "prometheus.yml,", "and", "a_b", "or", "http://x.io", "[it", "v2.0", "ok.", "3.14"]
    assert checked == [run, *tokens_seen]
    assert detect_language(run) == "zh"


def test_letters_are_counted_once_per_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    counted: list[str] = []
    letters = language._letters
    monkeypatch.setattr(language, "_letters", lambda sample: counted.append(sample) or letters(sample))
    language._detect.cache_clear()
    german = "Die Daten werden nicht komprimiert und bleiben lesbar, sagt das Handbuch."
    assert detect_language(german) == "de"
    assert len(counted) == 1


def test_one_set_of_script_ranges() -> None:
    """U+30FC (the long-vowel mark) and half-width katakana are kana for every module."""
    assert script_language("Prometheus のサーバー") == "ja"  # ー was a letter but not kana
    assert split_sentences("ﾃｽﾄ!ﾃﾞｰﾀ", lang="ja") == ["ﾃｽﾄ!", "ﾃﾞｰﾀ"]  # half-width katakana is CJK
    assert tokens("サーバーの時系列", "ja")[0] == "サーバー"


# ----------------------------------------------------------------------------------------------------------
# sentences

EXPECTED_SENTENCES = {
    "zh": [
        "监控系统概述",
        "Prometheus 是一个开源的监控系统，它把采集到的指标保存为时间序列数据。",
        "每条时间序列由指标名称和一组标签唯一确定。",
        "服务器定期从目标拉取指标，并把样本写入本地的时间序列数据库。",
        "你可以用查询语言对这些数据进行聚合和计算！",
        "为什么要使用拉取模式？",
        "因为拉取模式让监控系统能够判断目标是否健康。",
    ],
    "ja": [
        "監視の基本",
        "Prometheus はオープンソースの監視システムです。",
        "収集したメトリクスは時系列データとして保存されます。",
        "サーバーは一定の間隔でターゲットからメトリクスを取得します。",
        "クエリ言語を使うと、データを集計できます！",
        "なぜプル型を採用しているのでしょうか？",
        "プル型なら、ターゲットが正常かどうかを判断できるからです。",
    ],
    "de": [
        "Überblick",
        "Prometheus ist ein quelloffenes System zur Überwachung von Diensten, z. B. Webservern oder "
        "Datenbanken.",
        "Die Metriken werden als Zeitreihen gespeichert, d. h. jeder Messwert hat einen Zeitstempel.",
        "Der Server ruft die Metriken regelmäßig von den Zielen ab bzw. fragt sie über HTTP ab.",
        "Seit dem 1. Januar 2024 ist Version 2.0 die empfohlene Version.",
        "Die Konfiguration steht in der Datei prometheus.yml.",
    ],
    "fr": [
        "Présentation",
        "Prometheus est un système de surveillance open source, p. ex. pour des serveurs web.",
        "Les métriques collectées sont stockées sous forme de séries temporelles.",
        "M. Dupont, l'administrateur, configure les cibles dans le fichier prometheus.yml.",
        "Le serveur interroge les cibles à intervalles réguliers, cf. la section suivante.",
        "Chaque série temporelle est identifiée par un nom de métrique et des étiquettes.",
    ],
    "es": [
        "Introducción",
        "Prometheus es un sistema de monitorización de código abierto, p. ej. para servidores web.",
        "Las métricas recopiladas se guardan como series temporales.",
        "El Sr. García configura los objetivos en el archivo prometheus.yml.",
        "El servidor consulta los objetivos a intervalos regulares.",
        "Cada serie temporal se identifica por el nombre de la métrica y sus etiquetas.",
    ],
    "en": [
        "Overview",
        "Prometheus is an open-source monitoring system, e.g. for web servers.",
        "It stores the metrics it collects as time series.",
        "The server scrapes its targets at regular intervals, i.e. every 15 s by default.",
        "Version 2.0 introduced a new storage engine.",
        "Compare Prometheus vs. Graphite before you choose.",
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_passage_sentences(lang: str) -> None:
    first = passages(lang)[0]
    assert sentences_of(first, lang) == EXPECTED_SENTENCES[lang]
    assert sentences_of(first) == EXPECTED_SENTENCES[lang]  # detected
    for text in passages(lang):
        found = sentences_of(text, lang)
        assert 4 <= len(found) - 1 <= 6 and all(sentence.strip() == sentence for sentence in found)


def test_sentence_rules_per_language() -> None:
    de = split_sentences(
        "Das gilt z. B. hier, d. h. immer. Siehe Kap. 3 bzw. Abschn. 4. Am 3. März kam Version 2.0. "
        "Im 19. Jahrhundert gab es das nicht. Wir fanden 12. Danach war Ruhe. Äpfel, Birnen usw. sind Obst.",
        lang="de",
    )
    assert de == [
        "Das gilt z. B. hier, d. h. immer.",
        "Siehe Kap. 3 bzw. Abschn. 4.",
        "Am 3. März kam Version 2.0.",
        "Im 19. Jahrhundert gab es das nicht.",
        "Wir fanden 12.",
        "Danach war Ruhe.",
        "Äpfel, Birnen usw. sind Obst.",
    ]
    fr = "Voir le chap. 2 et Mme Durand. Il y a des blocs, des séries, etc. Ensuite on compacte. Cf. la doc."
    assert split_sentences(fr, lang="fr") == [
        "Voir le chap. 2 et Mme Durand.",
        "Il y a des blocs, des séries, etc.",
        "Ensuite on compacte.",
        "Cf. la doc.",
    ]
    es = "Véase la pág. 3, p. ej. la Dra. López. ¿Funciona? ¡Sí! EE. UU. usa etc. y más cosas."
    assert split_sentences(es, lang="es") == [
        "Véase la pág. 3, p. ej. la Dra. López.",
        "¿Funciona?",
        "¡Sí!",
        "EE. UU. usa etc. y más cosas.",
    ]
    assert split_sentences("它很快!下一句。“好。”然后 Prometheus v2.0 很好", lang="zh") == [
        "它很快!",
        "下一句。",
        "“好。”",
        "然后 Prometheus v2.0 很好",
    ]
    japanese = split_sentences("データ．次の文です．３．１４は数です。", lang="ja")
    assert japanese == ["データ．", "次の文です．", "３．１４は数です。"]


def test_every_sentence_terminal_ends_a_sentence() -> None:
    assert split_sentences("它很快！下一句。再来一句？", lang="zh") == ["它很快！", "下一句。", "再来一句？"]
    japanese = split_sentences("アラートが発火します。次の文です！", lang="ja")
    assert japanese == ["アラートが発火します。", "次の文です！"]
    assert split_sentences("It fired‼ Did it⁇ Yes.", lang="en") == ["It fired‼", "Did it⁇", "Yes."]
    for terminal in SENTENCE_TERMINALS:
        expected = [f"It works{terminal}", "Then it stops"]
        assert split_sentences(f"It works{terminal} Then it stops", lang="en") == expected, terminal


# ----------------------------------------------------------------------------------------------------------
# tokens and stop words


def test_tokens_per_language() -> None:
    zh = tokens("Prometheus 是一个开源的监控系统，它把指标保存到时间序列数据库。", "zh")
    assert "Prometheus" in zh and "数据库" in zh and "监控" in zh
    assert not any(token in "，。 " for token in zh)
    japanese = tokens("時系列データはアラートマネージャーに送られます。", "ja")
    assert "は" in japanese and "。" not in japanese
    if SCRIPT_RUNS:
        assert japanese[:4] == ["時系列", "データ", "は", "アラートマネージャー"]
    assert tokens("Die Zeitreihen, d. h. Messwerte!", "de") == ["Die", "Zeitreihen", "d.", "h.", "Messwerte"]
    assert tokens("l'alerte se déclenche.", "fr") == ["l'", "alerte", "se", "déclenche"]
    assert tokens("数据库保存样本。") == tokens("数据库保存样本。", "zh")  # detected
    assert tokens("hello wide world", "qq") == ["hello", "wide", "world"]  # unknown: the generic pipeline


def test_japanese_works_without_the_ja_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy

    def no_sudachi(code: str, *args: object, **kwargs: object) -> object:
        if code == "ja":
            raise ImportError("Japanese support requires SudachiPy and SudachiDict-core")
        return real_blank(code, *args, **kwargs)

    real_blank = spacy.blank
    monkeypatch.setattr(spacy, "blank", no_sudachi)
    nlp_ja = nlp._blank("ja")
    assert isinstance(nlp_ja.tokenizer, nlp.ScriptRunTokenizer)
    doc = nlp_ja("ＡＢＣ と 監視システム、  メトリクス\n終わり")
    assert doc.text == "ＡＢＣ と 監視システム、  メトリクス\n終わり"  # round trip, spaces kept
    assert [token.text for token in doc if not token.is_space] == [
        "ＡＢＣ", "と", "監視", "システム", "、", "メトリクス", "終", "わり",
    ]  # fmt: skip


def test_trained_pipeline_is_used_when_installed_never_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy
    import spacy.cli
    import spacy.util

    loaded: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(spacy.util, "is_package", lambda name: name == "de_core_news_sm")
    blank = spacy.blank
    monkeypatch.setattr(spacy, "load", lambda name, exclude=(): loaded.append((name, exclude)) or blank("de"))
    monkeypatch.setattr(spacy.cli, "download", lambda *a, **k: pytest.fail("must never download"))
    assert nlp._trained("de") is not None and loaded[0][0] == "de_core_news_sm"
    assert {"ner", "parser", "tagger"} <= set(loaded[0][1])  # only the tokenizer is kept
    assert nlp._trained("fr") is None


def test_stop_words_differ_per_language() -> None:
    lists = {lang: stop_words(lang) for lang in LANGUAGES}
    assert all(lists.values())
    assert len({frozenset(words) for words in lists.values()}) == len(LANGUAGES)
    assert "und" in lists["de"] and "und" not in lists["en"]
    assert "the" in lists["en"] and "the" not in lists["de"]
    assert "的" in lists["zh"] and "et" in lists["fr"] and "y" in lists["es"] and "これ" in lists["ja"]
    assert "zeitreihe" not in lists["de"]
    assert stop_words("de-AT") == lists["de"] and stop_words("qq") == frozenset()


# ----------------------------------------------------------------------------------------------------------
# phrases, summaries, entities, judge


def _phrases(lang: str, detect: bool = False) -> list[list[str]]:
    texts = passages(lang)
    given = None if detect else lang
    model = PhraseModel().fit(texts, lang=given)
    return model.keyphrases_many(texts, k=8, lang=given) + model.themes_many(texts, k=5, lang=given)


def test_chinese_keyphrases_are_words_and_terms() -> None:
    found = _phrases("zh")
    assert found == _phrases("zh", detect=True)
    flat = [phrase for phrases in found for phrase in phrases]
    sentences = {s for text in passages("zh") for s in sentences_of(text, "zh") if s[-1] in "。！？"}
    assert flat and all(2 <= len(phrase) <= 12 for phrase in flat)  # not characters, not whole lines
    assert not any(char in phrase for phrase in flat for char in "，。！？、\n")
    assert not sentences & set(flat)
    keyphrases = found[:4]
    assert "时间序列" in keyphrases[0] and "告警规则" in keyphrases[1] and "服务发现" in keyphrases[2]
    assert "告警管理器" in keyphrases[1] and "远程存储" in keyphrases[3]


def test_plural_folding_keeps_singulars_that_end_in_s() -> None:
    """French, Spanish, Portuguese and Catalan fold a plural -s with English's guards."""
    words = [
        ("processus", "fr"), ("análisis", "es"), ("status", "pt"), ("APIs", "fr"), ("alertes", "fr"),
        ("métricas", "es"), ("séries", "fr"),
    ]  # fmt: skip
    assert [phrases._other_info(word, lang)[0] for word, lang in words] == [
        "processus", "análisis", "status", "apis", "alerte", "métrica", "série",
    ]  # fmt: skip


def test_japanese_keyphrases_are_words() -> None:
    flat = [phrase for phrases in _phrases("ja") for phrase in phrases]
    assert flat and all(len(phrase) >= 2 for phrase in flat)
    assert {"アラートマネージャー", "リモートストレージ"} <= set(flat)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("de", "lokale Zeitreihendatenbank"), ("fr", "séries temporelles"), ("es", "series temporales")],
)
def test_keyphrases_are_free_of_the_languages_stop_words(lang: str, expected: str) -> None:
    found = _phrases(lang)
    flat = [phrase for phrases in found for phrase in phrases]
    stop = stop_words(lang)
    assert flat and expected in flat
    assert not [phrase for phrase in flat if any(word.casefold() in stop for word in phrase.split())]
    assert not {"bzw", "cf", "ex", "ej", "chap", "kap", "pág"} & {phrase.casefold() for phrase in flat}


def test_summaries_and_entities_follow_the_language() -> None:
    text = "\n\n".join(passages("zh"))
    summary = textrank_summary(text, max_sentences=2, lang="zh")
    assert summary == textrank_summary(text, max_sentences=2)
    parts = [s for s in sentences_of(text, "zh") if s in summary]
    assert len(parts) == 2 and summary == "".join(parts)  # whole sentences, joined as Chinese is
    german = EntityExtractor("rules").extract_many(passages("de"), lang="de")
    flat = {entity for entities in german for entity in entities}
    assert "prometheus.yml" in flat and "HTTP" in flat and not {"Die", "Der", "Kap", "Jeder"} & flat


def test_lexical_judge_reads_the_contexts_language() -> None:
    german = LexicalContext("Ältere Blöcke werden nicht komprimiert. Die Datenbank speichert Messwerte.")
    assert german.lang == "de"
    assert german.judge("Die Datenbank speichert die Messwerte.").supported
    assert not german.judge("Ältere Blöcke werden komprimiert.").supported
    chinese = LexicalContext("时间序列数据库把样本保存在本地磁盘上。较旧的数据块不会被压缩。")
    assert content_words("时间序列数据库保存样本。") == ["时间", "序列", "数据库", "保存", "样本"]
    assert chinese.judge("样本保存在本地磁盘上。").supported
    assert not chinese.judge("较旧的数据块会被压缩。").supported
    assert not chinese.judge("样本保存在远程存储中。").supported


def test_japanese_negation_refutes_without_the_ja_extra() -> None:
    """Japanese negates after the verb ("圧縮されない"): the ending is a token of its own, and it
    negates the content word before it."""
    if SCRIPT_RUNS:
        assert tokens("データは圧縮されない。", "ja") == ["データ", "は", "圧縮", "され", "ない"]
        assert tokens("圧縮しません", "ja") == ["圧縮", "し", "ません"]
        assert tokens("圧縮されるはずです", "ja") == ["圧縮", "されるはずです"]
    negated = LexicalContext("データは圧縮されない。", lang="ja")
    verdict = negated.judge("データは圧縮される。")
    assert not verdict.supported and "context negates" in verdict.reason
    assert negated.judge("データは圧縮されない。").supported
    verdict = LexicalContext("データは圧縮される。", lang="ja").judge("データは圧縮されません。")
    assert not verdict.supported and "it negates" in verdict.reason
    unpacked = LexicalContext("古いブロックは圧縮せず保存します。", lang="ja")
    assert unpacked.judge("古いブロックは保存されます。").supported
    assert "context negates" in unpacked.judge("古いブロックは圧縮されます。").reason
    assert (
        LexicalContext("データを圧縮しなければなりません。", lang="ja").judge("データを圧縮する。").supported
    )


def test_german_nouns_are_not_names_but_numbers_still_count() -> None:
    """German capitalises every noun: a noun's other form is not a different name."""
    german = LexicalContext("Prometheus speichert die Zeitreihen auf der lokalen Festplatte.", lang="de")
    assert german.judge("Prometheus speichert die Zeitreihe auf der lokalen Festplatte.").supported
    english = LexicalContext("Prometheus stores the time series on the local disks.", lang="en")
    assert english.judge("Prometheus stores the time series on the local disk.").supported
    blocks = LexicalContext("Blöcke bleiben 15 Tage in der Datei prometheus.yml erhalten.", lang="de")
    assert not blocks.judge("Blöcke bleiben 30 Tage in der Datei prometheus.yml erhalten.").supported
    assert not blocks.judge("Blöcke bleiben 15 Tage in der Datei thanos.yml erhalten.").supported
    terms = critical_terms("Seit 2024 steht die Zeitreihe in prometheus.yml und HTTP", "de")
    assert terms == {"2024", "prometheus.yml", "http"}


def test_each_text_is_tokenised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    words = lexical.words
    monkeypatch.setattr(lexical, "words", lambda text, lang=None: seen.append(text) or words(text, lang))
    context = LexicalContext("Ältere Blöcke werden nicht komprimiert.", lang="de")
    assert not context.judge("Ältere Blöcke werden komprimiert.").supported
    assert seen == ["Ältere Blöcke werden nicht komprimiert.", "Ältere Blöcke werden komprimiert."]
    assert lexical.word_set is word_set  # one definition of a word list, in groundset.languages.words


# ----------------------------------------------------------------------------------------------------------
# the graph


def test_mixed_folder_graph_stores_each_documents_language(tmp_path: Path) -> None:
    engine = CallEngine(cache=False)
    build = build_knowledge_graph(DATA, exclude=["README.md"], engine=engine, long_tokens=1, chunk_size=64)
    kg = build.kg
    documents = kg.nodes(NodeKind.DOCUMENT)
    assert len(documents) == sum(len(passages(lang)) for lang in LANGUAGES)
    for node in documents:
        data = kg.get(node)
        assert data["language"] == Path(data["source"]).parts[0], data["source"]
        if data["language"] == "zh":
            assert data["summary"] and "。 " not in data["summary"]
    for node in kg.nodes(NodeKind.CHUNK):
        data = kg.get(node)
        if kg.get(data["document"])["language"] == "zh":
            assert all(len(phrase) >= 2 for phrase in data["keyphrases"] + data["themes"])
    kg.save(tmp_path / "kg")
    again = KnowledgeGraph.load(tmp_path / "kg")
    assert [again.get(n)["language"] for n in documents] == [kg.get(n)["language"] for n in documents]


def test_language_given_with_a_langchain_document_is_kept() -> None:
    given = Document(page_content="Bonjour tout le monde, ceci est un texte.", metadata={"source": "a.md"})
    tagged = Document(page_content="Text in a document that says it is French.", metadata={"source": "b.md"})
    tagged.metadata["language"] = "fr-CA"
    loaded = load_documents([given, tagged])
    assert [doc.metadata["language"] for doc in loaded.documents] == ["fr", "fr-CA"]
    kg = build_knowledge_graph([given, tagged], engine=CallEngine(cache=False)).kg
    assert sorted(kg.get(n)["language"] for n in kg.nodes(NodeKind.DOCUMENT)) == ["fr", "fr"]


# ----------------------------------------------------------------------------------------------------------
# determinism

_SNIPPET = """
import json, sys
from pathlib import Path
from groundset.text.language import detect_language
from groundset.text.phrases import PhraseModel
from groundset.text.sentences import split_sentences
out = {}
for folder in sorted(Path(sys.argv[1]).iterdir()):
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))]
    model = PhraseModel().fit(texts)
    out[folder.name] = {
        "languages": [detect_language(t) for t in texts],
        "sentences": [split_sentences(t) for t in texts],
        "keyphrases": model.keyphrases_many(texts),
        "themes": model.themes_many(texts),
    }
print(json.dumps(out, ensure_ascii=False))
"""


def test_languages_are_identical_across_processes() -> None:
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", _SNIPPET, str(DATA)], capture_output=True, text=True, env=env, check=True
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    result = json.loads(runs[0])
    assert {lang: result[lang]["languages"] for lang in LANGUAGES} == {
        lang: [lang] * len(passages(lang)) for lang in LANGUAGES
    }
    here = PhraseModel().fit(passages("zh"))
    assert result["zh"]["keyphrases"] == here.keyphrases_many(passages("zh"))


def test_threads_asking_for_the_identifier_at_once_load_it_once(monkeypatch):
    """Threads that detect languages at once (generate finds scenarios in a worker thread while the
    event loop drafts): the later ones wait for the first load instead of paying for another."""
    import threading
    import time

    from py3langid.langid import LanguageIdentifier

    real = LanguageIdentifier.from_model_file.__func__
    loads = []

    def slow_load(cls, *args, **kwargs):
        loads.append(1)
        time.sleep(0.2)  # long enough for every thread to ask while the first one loads
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(language, "_loaded", [])
    monkeypatch.setattr(LanguageIdentifier, "from_model_file", classmethod(slow_load))
    got = []
    threads = [threading.Thread(target=lambda: got.append(language._identifier())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1 and len({id(identifier) for identifier in got}) == 1
