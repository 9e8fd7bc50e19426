# ruff: noqa: E501  (tables of sentences and expected questions read best one per line)
"""German facts: sentences of the German Vite docs (../shared/corpora/de-docs, MIT) and the questions
they answer offline; option facts of reference pages in any language; German facts never reach a kind
whose wording is English."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from groundset.core.engine import CallEngine
from groundset.kg import build_knowledge_graph
from groundset.synthesizers.kinds.comparative import ComparativeQuerySynthesizer
from groundset.synthesizers.kinds.conversational.synthesizer import ConversationalQuerySynthesizer
from groundset.synthesizers.kinds.double import DoubleQuerySynthesizer
from groundset.synthesizers.kinds.single_hop import SingleHopSpecificQuerySynthesizer
from groundset.synthesizers.kinds.situational import SituationalQuerySynthesizer
from groundset.synthesizers.questions.answer_first import fact_question
from groundset.synthesizers.scenarios.facts import facts_of
from groundset.synthesizers.scenarios.german_patterns import first_person
from groundset.synthesizers.scenarios.option_facts import option_facts

DE_DOCS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "de-docs" / "docs"
TOPICS = frozenset({"hook hotupdate", "isolatedmodules", "node_env"})


def one_fact(text: str):
    found = facts_of(text, lang="de", topics=TOPICS)
    assert len(found) == 1, found
    assert found[0].lang == "de"
    return found[0]


def ask(text: str, seed: int = 0, **kwargs) -> str:
    kwargs = {"style": "perfect_grammar", "length": "short", **kwargs}
    return fact_question("single_hop_specific", [one_fact(text)], seed=seed, **kwargs)


@pytest.mark.parametrize(
    ("sentence", "pattern", "questions"),
    [
        # a definition: "X ist ein ..." asks what X is, the term quoted without its article
        (
            "`FetchableDevEnvironment` ist eine Umgebung, die über die Schnittstelle Fetch API mit ihrer Laufzeitumgebung kommunizieren kann.",
            "definition",
            {"Was ist „FetchableDevEnvironment“?", "Was versteht man unter „FetchableDevEnvironment“?"},
        ),
        # a meaning, with the comma German puts before "dass"
        (
            "`Baseline Widely Available` bedeutet, dass die Funktion gut etabliert ist und seit mindestens 30 Monaten in allen Browsern verfügbar ist.",
            "definition",
            {"Was bedeutet „Baseline Widely Available“?"},
        ),
        # a purpose: what a thing enables
        (
            "Der Hook `hotUpdate` ermöglicht es Plugins, benutzerdefinierte HMR-Aktualisierungen für eine bestimmte Umgebung durchzuführen.",
            "purpose",
            {"Was ermöglicht „Hook hotUpdate“?"},
        ),
        # a goal "Um ... zu <verb>": the infinitive moves to the end, as the question says it
        (
            "Um ein Projekt ohne interaktive Aufforderungen zu erstellen, können Sie die `--no-interactive`-Flag verwenden.",
            "procedure",
            {"Wie kann ich ein Projekt ohne interaktive Aufforderungen erstellen?"},
        ),
        # the reader's wish "Wenn Sie ... möchten": the asker's own words ("meine", not "Ihre")
        (
            "Wenn Sie den Server in einem bestimmten Browser öffnen möchten, können Sie die Umgebungsvariable `process.env.BROWSER` setzen.",
            "procedure",
            {"Wie kann ich den Server in einem bestimmten Browser öffnen?"},
        ),
        # a consequence of a named condition
        (
            "Wenn `NODE_ENV` in einer `.env.[mode]`-Datei angegeben ist, kann der Modus verwendet werden, um seinen Wert zu kontrollieren.",
            "cause",
            {"Was passiert, wenn NODE_ENV in einer .env.[mode]-Datei angegeben ist?"},
        ),
        # advice in the reader's situation, said in the first person
        (
            'Falls eine Bibliothek nicht gut mit `"isolatedModules": true` funktioniert, können Sie `"skipLibCheck": true` verwenden, um die Fehler vorübergehend zu unterdrücken.',
            "cause",
            {'Was kann ich tun, falls eine Bibliothek nicht gut mit "isolatedModules": true funktioniert?'},
        ),
    ],
)
def test_a_german_sentence_gives_the_question_it_answers(sentence, pattern, questions):
    fact = one_fact(sentence)
    assert fact.pattern == pattern
    asked = {ask(sentence, seed) for seed in range(6)}
    assert asked <= questions and asked
    assert fact.answer in fact.reference  # the reference holds the answer slot


@pytest.mark.parametrize(
    "sentence",
    [
        # the condition's subject is "der Wert": which value only the page knows
        "Wenn der Wert auf true gesetzt ist, wird der Build die Datei .vite/license.md erstellen.",
        # no subject of its own
        "Wenn auf null gesetzt, werden keine Dateien überwacht.",
        # a pronoun or a preposition is no subject a question can name
        "Im Rahmen dieses fortlaufenden Ziels ist die Veröffentlichungsgröße von Vite 3 um 30 % kleiner als die von Vite 2.",
        "Dies ist ein reines Vite-Feature und kein Web- oder ES-Standard.",
        "Seine JS-API ermöglicht es Autoren von App-Frameworks, Vite-Funktionen zu verwenden.",
        # who the reader is, and a pointer instead of a how-to
        "Wenn Sie Framework-Autor oder Vite-Plugin-Maintainer sind und die neuen APIs nutzen möchten, finden Sie weitere Informationen in den Environment API Guides.",
        # "what happens when I ...": the docs say several things follow, as in English
        "Wenn Sie eine Datei bearbeiten, wird der Modulgraph aktualisiert und das Modul neu geladen.",
        # a weak genus is no definition
        "Ein guter Einstieg ist das Triage von Problemen und das Überprüfen von PRs.",
    ],
)
def test_a_german_sentence_without_a_self_contained_question_gives_no_fact(sentence):
    assert facts_of(sentence, lang="de", topics=TOPICS) == []


def test_the_readers_clause_is_said_in_the_first_person():
    assert first_person("Sie ältere Browser unterstützen müssen") == "ich ältere Browser unterstützen muss"
    assert first_person("Sie Ihre Anwendung im Browser öffnen") == "ich meine Anwendung im Browser öffne"
    assert first_person("Sie Werte sammeln") == "ich Werte sammle"
    assert first_person("Sie die Dateien ändern") == "ich die Dateien ändere"
    assert first_person("Sie sie löschen") is None  # "sie": they or it, the asker cannot tell
    assert (
        first_person("Ihr Plugin abwärtskompatibel machen", infinitive=True)
        == "mein Plugin abwärtskompatibel machen"
    )


def test_a_rule_about_something_else_asks_what_is_recommended():
    fact = one_fact(
        "Wenn `BigComponent.vue` nur für ein Framework funktionieren soll, sollte dessen Name als Teil des Präfixes stehen."
    )
    assert fact.slots["form"] == "rule"
    assert (
        ask(fact.reference)
        == "Was wird empfohlen, wenn BigComponent.vue nur für ein Framework funktionieren soll?"
    )


def test_german_questions_take_the_languages_sizes_and_styles():
    sentence = "Um ein Projekt ohne interaktive Aufforderungen zu erstellen, können Sie die `--no-interactive`-Flag verwenden."
    medium = ask(sentence, length="medium", scope="Vite")
    assert medium == "Frage zu Vite: Wie kann ich ein Projekt ohne interaktive Aufforderungen erstellen?"
    query = ask(sentence, style="web_search")
    assert query == query.lower() and "?" not in query and "projekt" in query
    sloppy = ask(sentence, style="poor_grammar", seed=3)
    assert sloppy.startswith("wie kann ich") and not sloppy.endswith("?")  # what it asks stays as written


def test_two_german_facts_are_asked_in_one_german_question():
    a = one_fact(
        "`FetchableDevEnvironment` ist eine Umgebung, die über die Schnittstelle Fetch API mit ihrer Laufzeitumgebung kommunizieren kann."
    )
    b = one_fact(
        "Um ein Projekt ohne interaktive Aufforderungen zu erstellen, können Sie die `--no-interactive`-Flag verwenden."
    )
    question = fact_question("multi_hop_specific", [a, b], style="perfect_grammar", length="short", seed=1)
    assert (
        question.startswith("Was") and ", und wie kann ich ein Projekt" in question and question.endswith("?")
    )
    compared = fact_question("multi_hop_abstract", [a, a.model_copy(update={"focus": "RunnableDevEnvironment"})],
                             style="perfect_grammar", length="short", seed=1)  # fmt: skip
    assert "„FetchableDevEnvironment“ und „RunnableDevEnvironment“" in compared


# --- options of a reference page, in any language ----------------------------------------------------
def test_a_german_reference_page_states_each_options_default_and_purpose():
    text = (DE_DOCS / "config" / "server-options.md").read_text(encoding="utf-8")
    found = option_facts(text, lang="de")
    by = {(f.focus, f.pattern): f for f in found}
    port = by[("server.port", "default")]
    assert port.answer == "5173" and port.lang == "de"
    # the value with what it sets: a sentence, not a bare "Standard: 5173"
    assert port.reference == "server.port: Standard: 5173. Geben Sie den Serverport an."
    assert by[("server.port", "purpose")].reference == "server.port: Geben Sie den Serverport an."
    assert ("server.host", "default") in by and ("server.host", "purpose") in by
    question = fact_question("single_hop_specific", [port], style="perfect_grammar", length="short", seed=0)
    assert question in (
        "Welchen Standardwert hat die Option „server.port“?",
        "Was ist der Standardwert von „server.port“?",
    )


ENGLISH_OPTIONS = """\
## Settings

Settings are read from the configuration file.

### `cache-dir`

* Default: ~/.cache/tool
* Type: Path

Where downloaded archives are kept between runs.

### Notes

* Default: this heading is no option, and this line is too long to be a value anyway.
* Type: prose

A paragraph under a title word.

### `retries`

* Type: Number
* Default: 3

If the network is slow, raise it.
"""


def test_an_english_reference_page_states_its_options_too():
    found = facts_of(ENGLISH_OPTIONS, lang="en")
    by = {(f.focus, f.pattern): f for f in found}
    assert by[("cache-dir", "default")].reference == (
        "cache-dir: Default: ~/.cache/tool. Where downloaded archives are kept between runs."
    )
    assert by[("cache-dir", "purpose")].answer == "Where downloaded archives are kept between runs"
    assert (
        by[("retries", "default")].reference == "retries: Default: 3."
    )  # no purpose: its paragraph is a condition
    assert ("retries", "purpose") not in by
    assert not any(f.focus == "Notes" for f in found)  # a title word is no option
    assert by[("cache-dir", "default")].slots.get("described") and not by[("retries", "default")].slots.get(
        "described"
    )
    rng = random.Random(0)
    from groundset.synthesizers.questions.templates import single_question

    assert single_question(by[("cache-dir", "default")], rng) in (
        "What does the cache-dir option default to?",
        "What is the default value of the cache-dir option?",
    )
    assert single_question(by[("cache-dir", "purpose")], rng) in (
        "What is the cache-dir option for?",
        "What does the cache-dir option do?",
    )


# --- which kinds take German facts -------------------------------------------------------------------
@pytest.fixture(scope="module")
def german_graph(tmp_path_factory):
    folder = tmp_path_factory.mktemp("de")
    for name in ("config/server-options.md", "guide/features.md", "guide/env-and-mode.md"):
        target = folder / name.replace("/", "-")
        target.write_text((DE_DOCS / name).read_text(encoding="utf-8"), encoding="utf-8")
    return build_knowledge_graph(folder, engine=CallEngine()).kg


def test_german_facts_make_questions_only_where_the_wording_is_german(german_graph):
    single = SingleHopSpecificQuerySynthesizer()
    groundings = list(single.groundings(german_graph, random.Random(0)))
    assert groundings and all(facts and facts[0].lang == "de" for _, _, facts in groundings)
    for kind in (SituationalQuerySynthesizer(), DoubleQuerySynthesizer()):  # German situations and joins
        assert kind.fact_index(german_graph).facts
    # the comparative and conversational kinds word their offline questions in English: terms in German
    for kind in (ComparativeQuerySynthesizer(), ConversationalQuerySynthesizer()):
        assert kind.fact_index(german_graph).facts == {}
        assert all(not facts for _, _, facts in kind.groundings(german_graph, random.Random(0)))


def test_a_german_double_question_joins_two_german_fact_questions():
    from groundset.languages import wording
    from groundset.synthesizers.kinds.term_based import local_double

    a = one_fact(
        "`FetchableDevEnvironment` ist eine Umgebung, die über die Schnittstelle Fetch API mit ihrer Laufzeitumgebung kommunizieren kann."
    )
    b = one_fact(
        "Um ein Projekt ohne interaktive Aufforderungen zu erstellen, können Sie die `--no-interactive`-Flag verwenden."
    )
    question, reference = local_double(
        wording("de"), [a, b], ["x"], ["", ""], style="perfect_grammar", length="short", seed=0, persona=""
    )
    assert (
        question.startswith("Was")
        and ", und wie kann ich ein Projekt ohne interaktive Aufforderungen erstellen?" in question
    )
    assert reference.splitlines() == [a.reference, b.reference]


def test_single_hop_takes_a_fact_of_every_document_before_a_second_of_one(german_graph):
    single = SingleHopSpecificQuerySynthesizer()
    documents = [
        german_graph.get(nodes[0])["document"]
        for nodes, _, _ in single.groundings(german_graph, random.Random(0))
    ]
    with_facts = set(documents)
    first_round = documents[: len(with_facts)]
    assert set(first_round) == with_facts  # the options page, one chunk per option, waits its turn


# --- pairs of options -------------------------------------------------------------------------------
def test_counterparts_are_told_by_their_names():
    from groundset.synthesizers.scenarios.fact_pairs import siblings

    assert siblings("server.port", "preview.port") == "port"  # one option in two namespaces
    assert siblings("diff src prefix", "diff dst prefix") == "prefix"  # one head, other modifiers
    assert siblings("classic histogram", "sparse histogram", heads=False) == ""  # only asked of settings
    assert siblings("native histogram sample", "single sample") == ""  # "single" says no kind
    assert siblings("metric", "metric type") == ""
    assert siblings("a.b.c", "a.b.d") == ""
    assert siblings("read only", "package lock only") == ""  # "only" names no kind of thing


@pytest.fixture(scope="module")
def options_graph(tmp_path_factory):
    folder = tmp_path_factory.mktemp("options")
    for name in ("server-options.md", "preview-options.md"):
        (folder / name).write_text((DE_DOCS / "config" / name).read_text(encoding="utf-8"), encoding="utf-8")
    return build_knowledge_graph(folder, engine=CallEngine()).kg


def test_an_option_defaulting_to_another_is_asked_with_that_ones_default(options_graph):
    from groundset.synthesizers.scenarios.fact_index import FactIndex
    from groundset.synthesizers.scenarios.fact_pairs import option_bridges

    bridges = {
        (a.focus, b.focus): (a, b)
        for (_, a), (_, b) in option_bridges(options_graph, FactIndex.of(options_graph))
    }
    assert ("preview.host", "server.host") in bridges
    first, second = bridges[("preview.host", "server.host")]
    assert (
        first.answer == "server.host" and second.answer == "'localhost'"
    )  # the value the first one starts at
    assert ("preview.port", "server.port") not in bridges  # 4173: its own value, no second page needed
    question = fact_question(
        "multi_hop_specific", [first, second], style="perfect_grammar", length="short", seed=0
    )
    assert "„preview.host“" in question and "„server.host“" in question and ", und " in question


def test_two_options_are_compared_by_their_defaults_and_what_they_set(options_graph):
    from groundset.synthesizers.scenarios.fact_index import FactIndex
    from groundset.synthesizers.scenarios.fact_pairs import comparable_pairs

    pairs = {
        frozenset((a.focus, b.focus)): (a, b)
        for _, (_, a), (_, b) in comparable_pairs(
            options_graph, FactIndex.of(options_graph), random.Random(0)
        )
    }
    a, b = pairs[frozenset(("preview.port", "server.port"))]
    assert {a.answer, b.answer} == {"4173", "5173"}  # the difference is in the reference
    question = fact_question("multi_hop_abstract", [a, b], style="perfect_grammar", length="short", seed=0)
    assert "„preview.port“" in question and "„server.port“" in question
