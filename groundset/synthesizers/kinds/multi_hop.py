"""Multi-hop questions: two or more chunks that the question needs together.

With facts (English): specific joins two chunks that state different facts about one subject (what
it is, and its default or rule) and asks for both; abstract compares two subjects of one theme with
a definition or purpose of each. The subject must mean the same thing in both chunks: same key,
same spelling for code-like names, and the two chunks (or the two sentences) close in meaning.
Without facts (other languages): specific uses an ``entity_overlap`` edge (in Chinese and Japanese a
key phrase both chunks use bridges first), abstract 2 to 4 chunks of one community of the
similarity/theme graph (Louvain, networkx) that share a theme.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterator

import networkx as nx

from ...kg.graph import EdgeKind, KnowledgeGraph, NodeKind
from ...personas.language import node_language
from ...personas.nouns import CJK_LANGUAGES, cjk_share, reads_as_thing
from ..base import Grounding, Synthesizer
from ..scenarios.fact_pairs import (
    comparable_pairs,
    comparable_subjects,
    option_bridges,
    paired_subjects,
    same_subject_pairs,
)
from ..scenarios.facts import FACT_LANGUAGES


class MultiHopSpecificQuerySynthesizer(Synthesizer):
    name = "multi_hop_specific"
    fact_languages = FACT_LANGUAGES

    def shortage(self, kg: KnowledgeGraph) -> str:
        index = self.fact_index(kg)
        if self.writes_with_model or not index.facts:
            return ""
        subjects, twice, common = paired_subjects(kg, index)
        widespread = (
            f" ({common} of them only on another page, and named on so many pages that two pages' facts "
            "need not be about one thing)"
            if common
            else ""
        )
        return (
            "offline it joins two facts about one subject from two passages, and of the "
            f"{subjects} subjects the docs state a fact about, {twice} have one in a second passage"
            f"{widespread}; --llm joins passages by the entities they share"
        )

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        # Offline a subject's definition also pairs with a fact about it in a setting: few corpora state two
        # facts of one subject, and templates have no other multi-hop source (a model has shared entities).
        settings = not self.writes_with_model
        for (chunk_a, first), (chunk_b, second) in same_subject_pairs(kg, index, rng, settings=settings):
            how_to = [second.focus] if second.pattern == "procedure" else []  # what its second half asks
            yield [chunk_a, chunk_b], [first.focus, *how_to], [first, second]
        for (chunk_a, first), (chunk_b, second) in option_bridges(kg, index):
            yield [chunk_a, chunk_b], [first.focus, second.focus], [first, second]
        if index.facts and not self.writes_with_model:
            return  # offline, a pair of facts is the only multi-hop question the templates can write
        edges = [
            (s, t, list(data.get("shared") or []))
            for s, t, _, data in kg.edges(EdgeKind.ENTITY_OVERLAP)
            if kg.get(s)["document"] != kg.get(t)["document"]
        ]
        edges = [(s, t, _native_bridges(kg, s, t) + shared) for s, t, shared in edges]
        rng.shuffle(edges)
        frequency = Counter(
            e.casefold() for c in kg.nodes(NodeKind.CHUNK) for e in kg.get(c).get("entities") or []
        )
        for _, _, shared in edges:
            rng.shuffle(shared)
            shared.sort(key=lambda e: frequency[e.casefold()])  # the rarest shared entity bridges best
        # Pairs bridged by a specific entity first: one that is everywhere makes a vague question.
        edges.sort(key=lambda edge: frequency[edge[2][0].casefold()] if edge[2] else 1 << 30)
        for source, target, shared in edges:
            both = (kg.get(source)["text"].casefold(), kg.get(target)["text"].casefold())
            for entity in shared:
                if all(entity.casefold() in text for text in both):
                    yield [source, target], [entity], []
                    break


def _native_bridges(kg: KnowledgeGraph, source: str, target: str) -> list[str]:
    """Chinese and Japanese chunks: key phrases in the language's script that both chunks use. Their
    shared entities are mostly Latin names (the product's own, "HTTP"): a poor bridge there."""
    lang = node_language(kg, source)
    if lang not in CJK_LANGUAGES or node_language(kg, target) != lang:
        return []
    texts = [kg.get(node)["text"].casefold() for node in (source, target)]
    phrases = [*(kg.get(source).get("keyphrases") or []), *(kg.get(target).get("keyphrases") or [])]
    return [
        phrase
        for phrase in dict.fromkeys(phrases)
        if len(phrase) >= 3 and _native_term(phrase, lang) and all(phrase.casefold() in t for t in texts)
    ]


def _native_term(term: str, lang: str) -> bool:
    """A thing, and in Chinese or Japanese one written in its script ("lib" of "/var/lib" is not)."""
    return reads_as_thing(term, lang) and (lang not in CJK_LANGUAGES or cjk_share(term) >= 0.5)


class MultiHopAbstractQuerySynthesizer(Synthesizer):
    name = "multi_hop_abstract"
    fact_languages = FACT_LANGUAGES

    def __init__(self, *args, max_chunks: int = 4, seed: int = 0, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        if not 2 <= max_chunks <= 4:
            raise ValueError(f"max_chunks must be between 2 and 4, got {max_chunks}")
        self.max_chunks = max_chunks
        self.seed = seed

    def communities(self, kg: KnowledgeGraph) -> list[set[str]]:
        """Louvain communities of chunks over similar and theme_overlap edges (weighted by score)."""
        weights: dict[tuple[str, str], float] = {}  # an edge's two directions are one edge
        for kind in (EdgeKind.SIMILAR, EdgeKind.THEME_OVERLAP):
            for s, t, _, data in kg.edges(kind):
                key = (t, s) if (t, s) in weights else (s, t)
                weights[key] = float(data.get("score", 1.0)) + weights.get(key, 0)
        if not weights:
            return []
        graph = nx.Graph()
        graph.add_weighted_edges_from((s, t, w) for (s, t), w in weights.items())
        found = nx.community.louvain_communities(graph, weight="weight", seed=self.seed)
        return sorted((c for c in found if len(c) > 1), key=lambda c: (-len(c), min(c)))

    def shortage(self, kg: KnowledgeGraph) -> str:
        index = self.fact_index(kg)
        if self.writes_with_model or not index.facts:
            return ""
        defined = comparable_subjects(index)
        return (
            "offline it compares two subjects the docs define and either list side by side in one sentence "
            "or name as counterparts (server.port and preview.port), "
            f"and they define {defined}; --llm writes questions over passages of one theme"
        )

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        for theme, (chunk_a, first), (chunk_b, second) in comparable_pairs(kg, index, rng):
            yield [chunk_a, chunk_b], [theme, first.focus, second.focus], [first, second]
        if index.facts and not self.writes_with_model:
            return
        candidates: list[Grounding] = []
        for community in self.communities(kg):
            by_theme: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for chunk in sorted(community):
                data = kg.get(chunk)
                if data.get("kind") != NodeKind.CHUNK.value:
                    continue
                lang = node_language(kg, chunk)
                for theme in data.get("themes") or []:
                    if lang == "en" or _native_term(theme, lang):  # no "写入" (to write) as a theme
                        by_theme[theme][data["document"]].append(chunk)
            for theme, per_document in sorted(by_theme.items()):
                if len(per_document) < 2:
                    continue
                documents = sorted(per_document)
                rng.shuffle(documents)
                size = rng.randint(2, min(self.max_chunks, len(documents)))
                chunks = [rng.choice(per_document[d]) for d in documents[:size]]
                candidates.append((chunks, [theme], []))
        rng.shuffle(candidates)
        yield from candidates
