"""Lints over offline test sets of the shared corpora: what a reader would throw away must not appear.

200 samples from each corpus: no markup, directives, HTML tags or anchors in questions or references;
no reference line ending in ":" or made of a heading; no section title pasted into a question; no
doubled words; no filler in web-search queries; and in a 100-sample set no context used more than
twice. Plus the rated sample of tests/data/ratings: its usable share is what docs/benchmarks.md reports.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from groundset.core.engine import CallEngine
from groundset.kg import build_knowledge_graph
from groundset.kg.graph import NodeKind
from groundset.synthesizers import TestsetGenerator
from groundset.synthesizers.scenarios.fact_index import FactIndex
from groundset.synthesizers.scenarios.page_name import document_name
from groundset.text.plaintext import plain_text

from .corpora import MESSY, PROMETHEUS_DOCS, SHARED

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PROMETHEUS_DOCS.is_dir(), reason=f"shared corpora not found at {SHARED}"),
]

MARKUP = re.compile(r"<[A-Za-z/!][^>]*>|\{\{|\}\}|\{%|%\}|\]\(|\{#|<!--")
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
FILLER = re.compile(
    r"\b(?:documentation|docs|according|described|based on|in practice|production|guide|my team|"
    r"engineer|developer|operator|practitioner)\b",
    re.IGNORECASE,
)
RATINGS = Path(__file__).parent / "data" / "ratings" / "prometheus-offline-60.jsonl"


def _build(path):
    return build_knowledge_graph(path, engine=CallEngine(cache=False)).kg


@pytest.fixture(scope="module", params=["prometheus", "messy"])
def corpus(request):
    kg = _build(PROMETHEUS_DOCS if request.param == "prometheus" else MESSY)
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(kg, 200, seed=11)
    return request.param, kg, testset


def _titles(kg) -> set[str]:
    """Section titles and document titles of two words or more (one word may well be the subject)."""
    titles = set()
    for chunk in kg.nodes(NodeKind.CHUNK):
        titles.update(p.strip().casefold() for p in (kg.get(chunk).get("section") or "").split(" > "))
    for document in kg.nodes(NodeKind.DOCUMENT):
        titles.add(str(kg.get(document).get("title") or "").casefold())
    return {t for t in titles if len(t.split()) >= 2}


def _core(question: str) -> str:
    """A long question's last sentence: the persona lead-in before it names topics on purpose."""
    parts = re.split(r"(?<=[.!?])\s+", question.strip())
    return parts[-1]


def test_offline_samples_pass_every_lint(corpus):
    name, kg, testset = corpus
    assert len(testset) >= (150 if name == "prometheus" else 20), testset.metadata["notes"]
    titles = _titles(kg)
    scope = FactIndex.of(kg).scope
    headings = {t for t in titles} | {
        plain_text(part).casefold()
        for chunk in kg.nodes(NodeKind.CHUNK)
        for part in (kg.get(chunk).get("section") or "").split(" > ")
    }
    problems: list[str] = []
    for sample in testset:
        question, reference = sample.user_input, sample.reference
        for text in (question, reference):
            if MARKUP.search(text):
                problems.append(f"markup: {text!r}")
        for line in reference.split("\n"):
            if line.rstrip().endswith(":"):
                problems.append(f"list stub reference: {line!r}")
            if line.strip().rstrip(".").casefold() in headings:
                problems.append(f"heading as reference: {line!r}")
        core = _core(question).casefold()
        terms = [t.casefold() for t in sample.terms]
        # a policy's or a specification's name is said on purpose ("... in OpenMetrics 1.0?")
        documents = {document_name(kg, node, scope) for node in sample.reference_context_ids} - {""}
        terms += [name.casefold() for name in documents]
        pasted = [t for t in titles if t in core and not any(t in x or x in t for x in terms if x)]
        if pasted:
            problems.append(f"section title {pasted} in question: {question!r}")
        if DOUBLED.search(question):
            problems.append(f"doubled word: {question!r}")
        query = question
        for name in documents:
            query = re.sub(re.escape(name.removeprefix("the ")), "", query, flags=re.IGNORECASE)
        if sample.style == "web_search" and (FILLER.search(query) or "?" in question):
            problems.append(f"filler in a search query: {question!r}")
    assert not problems, "\n".join(problems[:20])


def test_every_offline_reference_answers_from_its_contexts(corpus):
    _, _, testset = corpus
    for sample in testset:
        grounding = " ".join(" ".join(plain_text(c).split()) for c in sample.reference_contexts).casefold()
        for line in sample.reference.split("\n"):
            words = re.findall(r"\w+", line.casefold())
            found = sum(1 for w in words if w in grounding)
            assert found / len(words) >= 0.9, (sample.id, line)  # copied (a pronoun may be resolved)
        if sample.synthesizer != "single_hop_specific":
            assert len(sample.reference.split("\n")) == len(sample.reference_context_ids) == 2


def test_no_context_backs_more_than_two_of_a_hundred_samples():
    kg = _build(PROMETHEUS_DOCS)
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(kg, 100, seed=5)
    assert len(testset) == 100
    uses = Counter(" ".join(c.split()).casefold() for s in testset for c in s.reference_contexts)
    assert max(uses.values()) <= 2, uses.most_common(3)


def test_the_rated_sample_is_complete_and_mostly_usable():
    with open(RATINGS, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    assert len(rows) == 60
    for row in rows:
        assert set(row["rating"]) == {"plausible", "answers", "grounded", "needs_both", "usable"}
        assert row["note"].strip()
        multi = row["synthesizer"] != "single_hop_specific"
        criteria = [row["rating"][k] for k in ("plausible", "answers", "grounded")]
        if multi:
            criteria.append(row["rating"]["needs_both"])
        assert row["rating"]["usable"] == all(criteria), row["id"]
    usable = sum(row["rating"]["usable"] for row in rows) / len(rows)
    assert usable >= 0.7, usable
