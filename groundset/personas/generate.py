"""Personas from the graph: cluster what the documents are about, one persona per cluster.

Documents are clustered by their summaries, so each persona stands for one region of the
corpus. A corpus of short documents has no summaries; its chunks stand in for them. Besides
its themes, a cluster carries its most distinctive entities and keyphrases (from the chunks):
the offline persona names its reader from them. The order of everything (inputs, clusters,
representatives, themes, terms) is fixed, so the same graph gives the same prompt inputs, hence
cache hits and identical personas on a rerun.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.cluster import KMeans
from sklearn.preprocessing import normalize

from ..core.aio import run_sync
from ..core.engine import CallEngine, get_engine
from ..core.errors import PromptOutputError
from ..core.models import resolve_embeddings, resolve_llm
from ..kg.graph import KnowledgeGraph, NodeKind
from ..kg.scope import corpus_scope
from .audience import audience_of, distinct_audiences
from .language import check_language, language_label, nodes_language
from .model import Persona
from .prompts import PersonaInput, PersonaPrompt
from .roles import is_markup

log = logging.getLogger("groundset.personas")
REPRESENTATIVES = 3
THEMES = 5
TERMS = 8  # entities and keyphrases kept per cluster
CHUNK_CHARS = 300
RANDOM_STATE = 0


@dataclass(frozen=True)
class _Item:
    """One thing to cluster: a document summary, or a chunk when there are no summaries."""

    id: str
    text: str
    themes: tuple[str, ...]
    vector: np.ndarray | None
    entities: tuple[str, ...] = ()  # one entry per chunk that names it (repeats count)
    keyphrases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cluster:
    """Members (ids, most central first), representative texts, dominant themes, and the entities
    and keyphrases that set the cluster apart from the rest of the corpus (strongest first)."""

    ids: tuple[str, ...]
    summaries: tuple[str, ...]
    themes: tuple[str, ...]
    entities: tuple[str, ...] = ()
    keyphrases: tuple[str, ...] = ()
    language: str = "en"  # the majority language of its members (documents, or chunks)
    audience: str = ""  # the role its pages name their readers by ("teammate"; ``audience``), "" for none
    scope: str = ""  # what the whole corpus is about ("Sourcegraph"; ``corpus_scope``)
    # The mean of its members' unit vectors: its persona is matched to content by it (no embedding call).
    centre: np.ndarray | None = field(default=None, compare=False, repr=False)


async def agenerate_personas(
    kg: KnowledgeGraph,
    n: int = 4,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    prompt: PersonaPrompt | None = None,
    language: str | None = None,
) -> list[Persona]:
    """Up to ``n`` personas, one per cluster of the documents' summaries, biggest cluster first, each
    written in its cluster's language, or in ``language`` (an ISO 639-1 code) for all of them."""
    engine = engine or get_engine()
    clusters = await acluster_documents(kg, n, embeddings=embeddings, engine=engine)
    written = await apersonas_of(clusters, llm=llm, engine=engine, prompt=prompt, language=language)
    return [persona for persona, _ in written]


async def apersonas_of(
    clusters: Sequence[Cluster],
    *,
    llm: Any = None,
    engine: CallEngine | None = None,
    prompt: PersonaPrompt | None = None,
    language: str | None = None,
) -> list[tuple[Persona, Cluster]]:
    """One persona per cluster, with the cluster it was written for (one the model could not write after
    retries is left out with a warning; all failing raises the first error)."""
    forced = check_language(language)
    model = resolve_llm(llm).model
    engine = engine or get_engine()
    prompt = prompt or PersonaPrompt()
    inputs = [
        PersonaInput(
            summaries=list(c.summaries),
            themes=list(c.themes),
            entities=list(c.entities),
            keyphrases=list(c.keyphrases),
            language=language_label(forced or c.language),
            audience=c.audience,
            scope=c.scope,
        )
        for c in clusters
    ]
    personas = await asyncio.gather(
        *(prompt.run(model, data, engine=engine, stage="personas.generate") for data in inputs),
        return_exceptions=True,
    )
    # A persona the model answered but could not write usably (a small model) is the offline one.
    personas = [
        _offline_persona(prompt, data, engine) if isinstance(p, PromptOutputError) else p
        for p, data in zip(personas, inputs, strict=True)
    ]
    # One persona the model could not write (after retries) costs that persona, not the run.
    failed = [p for p in personas if isinstance(p, BaseException)]
    written = [(p, c) for p, c in zip(personas, clusters, strict=True) if not isinstance(p, BaseException)]
    if failed and not written:
        raise failed[0]
    for error in failed:
        if isinstance(error, asyncio.CancelledError):
            raise error
        log.warning("a persona could not be written and is left out: %s: %s", type(error).__name__, error)
    named = unique_names([persona for persona, _ in written])
    return [(persona, cluster) for persona, (_, cluster) in zip(named, written, strict=True)]


def _offline_persona(prompt: PersonaPrompt, data: PersonaInput, engine: CallEngine) -> Persona:
    log.info("a persona the model could not write usably is written offline")
    engine.record("personas.generate", fallbacks=1)
    return prompt.offline(data)


def generate_personas(
    kg: KnowledgeGraph,
    n: int = 4,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    prompt: PersonaPrompt | None = None,
    language: str | None = None,
) -> list[Persona]:
    """The sync twin of ``agenerate_personas``."""
    return run_sync(
        agenerate_personas(
            kg, n, llm=llm, embeddings=embeddings, engine=engine, prompt=prompt, language=language
        )
    )


async def acluster_documents(
    kg: KnowledgeGraph, n: int, *, embeddings: Any = None, engine: CallEngine | None = None
) -> list[Cluster]:
    """At most ``n`` clusters of the graph's summaries (or chunks), ordered by size, then first id."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an int >= 1, got {n!r}")
    items = _items(kg)
    if not items:
        log.warning("the knowledge graph has no documents with text: no personas to generate")
        return []
    unit = normalize(np.asarray(await _vectors(items, embeddings, engine or get_engine()), dtype=np.float64))
    # KMeans is CPU work: keep it off the shared event loop that serves every model call.
    groups = await asyncio.to_thread(_kmeans, unit, min(n, len(items)))
    groups.sort(key=lambda g: (-len(g), min(items[i].id for i in g)))
    themes = dominant_themes([[items[i].themes for i in group] for group in groups])
    entities = distinctive_terms([[items[i].entities for i in group] for group in groups])
    keyphrases = distinctive_terms([[items[i].keyphrases for i in group] for group in groups])
    members = _member_texts(kg, [[items[i].id for i in group] for group in groups])
    scope = corpus_scope(kg)
    audiences = distinct_audiences([audience_of(texts) for texts in members], scope)
    return [
        Cluster(
            ids=tuple(items[i].id for i in group),
            summaries=_representatives([items[i].text for i in group]),
            themes=tuple(top),
            entities=tuple(names),
            keyphrases=tuple(phrases),
            language=nodes_language(kg, [items[i].id for i in group]),
            centre=unit[group].mean(axis=0).astype(np.float32),
            audience=role,
            scope=scope,
        )
        for group, top, names, phrases, role in zip(
            groups, themes, entities, keyphrases, audiences, strict=True
        )
    ]


def _member_texts(kg: KnowledgeGraph, groups: list[list[str]]) -> list[list[str]]:
    """Each group's member texts: a document's chunks (by their ``document``, so in any node order), or the
    chunk itself; the chunks are read once for all groups. Only counted (``audience_of``), so unordered."""
    wanted = {node for group in groups for node in group}
    texts: dict[str, list[str]] = {node: [] for node in wanted}
    for chunk in kg.nodes(NodeKind.CHUNK):
        data = kg.get(chunk)
        owner = chunk if chunk in wanted else str(data.get("document"))
        if owner in wanted:
            texts[owner].append(str(data.get("text") or ""))
    return [[" ".join(texts[node]) for node in group] for group in groups]


def _representatives(texts: list[str]) -> tuple[str, ...]:
    """The first distinct texts (members come nearest-centroid first): near-copies add nothing."""
    chosen: dict[str, str] = {}
    for text in texts:
        chosen.setdefault(" ".join(text.casefold().split()), text)
        if len(chosen) == REPRESENTATIVES:
            break
    return tuple(chosen.values())


def _items(kg: KnowledgeGraph) -> list[_Item]:
    """Documents with a summary; else chunks (first 300 chars); else documents' own text. Sorted by id."""
    docs = sorted(kg.nodes(NodeKind.DOCUMENT))
    all_chunks = kg.nodes(NodeKind.CHUNK)
    terms = _Terms(kg, all_chunks)
    summarised = [d for d in docs if _text(kg.get(d).get("summary"))]
    if summarised:
        return [_item(kg, d, kg.get(d)["summary"], "summary_embedding", terms) for d in summarised]
    chunks = sorted(c for c in all_chunks if _text(kg.get(c).get("text")))
    if chunks:
        log.info("no document has a summary (short documents): clustering %d chunks instead", len(chunks))
        return [_item(kg, c, _clip(kg.get(c)["text"]), "embedding", terms) for c in chunks]
    with_text = [d for d in docs if _text(kg.get(d).get("text"))]
    return [_item(kg, d, _clip(kg.get(d)["text"]), "", terms) for d in with_text]


def _item(kg: KnowledgeGraph, node: str, text: str, vector_key: str, terms: _Terms) -> _Item:
    data = kg.get(node)
    vector = data.get(vector_key) if vector_key else None
    themes = _strings(data.get("themes"))
    entities, keyphrases = terms.of(node)
    return _Item(
        node,
        text.strip(),
        themes,
        None if vector is None else np.asarray(vector, np.float32),
        entities,
        keyphrases,
    )


class _Terms:
    """Entities and keyphrases per node: a chunk's own, a document's gathered from its chunks.

    A single capitalised word the corpus mostly writes in lower case ("Metric", "Receivers" at the
    start of a heading) is a common word, not a name, and is left out of the entities.
    """

    def __init__(self, kg: KnowledgeGraph, chunks: list[str]) -> None:
        self.kg = kg
        self.by_document: dict[str, list[str]] = {}
        for chunk in sorted(chunks, key=lambda c: (kg.get(c).get("position", 0), c)):
            self.by_document.setdefault(str(kg.get(chunk).get("document")), []).append(chunk)
        capitalised: Counter[str] = Counter()
        lowercase: Counter[str] = Counter()
        for chunk in chunks:
            data = kg.get(chunk)
            capitalised.update({e for e in _strings(data.get("entities")) if _CAPITALISED.match(e)})
            phrases = (*_strings(data.get("keyphrases")), *_strings(data.get("themes")))
            lowercase.update({_stem(w) for p in phrases for w in p.split() if w.isalpha() and w.islower()})
        self.common = {e for e, n in capitalised.items() if lowercase[_stem(e.lower())] * 2 >= n}
        self.usable: dict[str, bool] = {}

    def of(self, node: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        nodes = self.by_document.get(node) or [node]
        entities: list[str] = []
        keyphrases: list[str] = []
        for each in nodes:
            data = self.kg.get(each)
            entities += [e for e in dict.fromkeys(_strings(data.get("entities"))) if self._usable(e, True)]
            keyphrases += [
                k for k in dict.fromkeys(_strings(data.get("keyphrases"))) if self._usable(k, False)
            ]
        return tuple(entities), tuple(keyphrases)

    def _usable(self, term: str, entity: bool) -> bool:
        if entity and term in self.common:
            return False
        known = self.usable.get(term)
        if known is None:
            known = self.usable[term] = not is_markup(term)
        return known


_CAPITALISED = re.compile(r"^[A-Z][a-z]+$")


def _strings(values: Any) -> tuple[str, ...]:
    if not isinstance(values, list | tuple):
        return ()
    return tuple(" ".join(v.split()) for v in values if isinstance(v, str) and v.strip())


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


async def _vectors(items: list[_Item], embeddings: Any, engine: CallEngine) -> np.ndarray:
    """Stored vectors when every item has one of the same shape; else embed all texts (one space)."""
    stored = [item.vector for item in items]
    vectors = [v for v in stored if v is not None and v.ndim == 1 and v.size]
    if len(vectors) == len(stored) and len({v.shape for v in vectors}) == 1:
        return np.vstack(vectors)
    model = resolve_embeddings(embeddings).model
    return await engine.embed(model, [item.text for item in items], stage="personas.embed")


def _kmeans(points: np.ndarray, k: int) -> list[list[int]]:
    """KMeans on unit vectors ``points`` (cosine geometry); each group lists its members nearest-centroid
    first."""
    k = min(k, len(np.unique(points.round(8), axis=0)))  # never ask for more clusters than points
    if k <= 1:
        labels = np.zeros(len(points), dtype=int)
        centres = points.mean(axis=0, keepdims=True)
    else:
        fitted = KMeans(n_clusters=k, random_state=RANDOM_STATE, n_init=10).fit(points)
        labels, centres = fitted.labels_, fitted.cluster_centers_
    groups = []
    for label in sorted(set(labels.tolist())):
        members = np.flatnonzero(labels == label)
        distance = np.linalg.norm(points[members] - centres[label], axis=1)
        groups.append([int(members[j]) for j in np.lexsort((members, distance.round(9)))])
    return groups


def dominant_themes(clusters: list[list[tuple[str, ...]]], limit: int = THEMES) -> list[list[str]]:
    """Each cluster's most frequent themes (one list of themes per member), for every cluster at once.

    A theme's count in its cluster is weighted by how few clusters share it (smoothed IDF), so a
    theme that runs through the whole corpus does not name every persona. Ties go to themes the
    members rank earlier, then A-Z; the spelling shown is the most common one.
    """
    counts: list[Counter[str]] = []
    weights: list[Counter[str]] = []
    forms: dict[str, Counter[str]] = {}
    for members in clusters:
        count: Counter[str] = Counter()
        weight: Counter[str] = Counter()
        for themes in members:
            seen: set[str] = set()
            for rank, theme in enumerate(themes):
                key = " ".join(theme.casefold().split())
                if key and key not in seen:
                    seen.add(key)
                    count[key] += 1
                    weight[key] += 1.0 / (rank + 1)
                    forms.setdefault(key, Counter())[" ".join(theme.split())] += 1
        counts.append(count)
        weights.append(weight)
    spread = Counter(key for count in counts for key in count)
    idf = {key: math.log((1 + len(clusters)) / (1 + df)) + 1 for key, df in spread.items()}
    result = []
    for count, weight in zip(counts, weights, strict=True):
        order = sorted(count, key=lambda key: (-round(count[key] * idf[key], 9), -weight[key], key))
        result.append([min(forms[key].items(), key=lambda f: (-f[1], f[0]))[0] for key in order[:limit]])
    return result


def distinctive_terms(clusters: list[list[tuple[str, ...]]], limit: int = TERMS) -> list[list[str]]:
    """Each cluster's terms (one tuple of terms per member, a term repeated once per chunk naming it)
    that are frequent in the cluster and rare in the corpus: a TF-IDF over all members of all
    clusters. A term found in every member (the product's own name) weighs next to nothing, so a
    name shared by a few members of one cluster comes first. Ties go to the term named more often,
    then to the one met first (members come most central first); the spelling shown is the most
    common one.
    """
    spelled = Counter(term for group in clusters for terms in group for term in terms)
    key_of = {term: " ".join(term.casefold().split()) for term in spelled}  # each spelling normalised once
    members = [Counter(key_of[t] for t in terms) for group in clusters for terms in group]
    forms: dict[str, Counter[str]] = {}
    for term, n in spelled.items():
        forms.setdefault(key_of[term], Counter())[term] += n
    spread = Counter(key for member in members for key in member)
    total = len(members)
    idf = {key: math.log((1 + total) / (1 + df)) + 0.05 for key, df in spread.items()}
    result, start = [], 0
    for group in clusters:
        score: Counter[str] = Counter()
        count: Counter[str] = Counter()
        for member in members[start : start + len(group)]:
            count.update(member)
            for key, n in member.items():  # a Counter keeps the order terms were met in
                score[key] += (1 + 0.25 * math.log(n)) * idf[key]
        start += len(group)
        first = {key: i for i, key in enumerate(count)}
        order = sorted(score, key=lambda key: (-round(score[key], 9), -count[key], first[key]))
        result.append([min(forms[key].items(), key=lambda f: (-f[1], f[0]))[0] for key in order[:limit]])
    return result


def unique_names(personas: list[Persona]) -> list[Persona]:
    """Suffix repeated names (compared case-insensitively) with " (2)", " (3)", ... in order; a persona
    identical to an earlier one (one reader of two clusters) stays as it is."""
    taken: set[str] = set()
    result = []
    for persona in personas:
        if persona in result:
            result.append(persona)
            continue
        name, i = persona.name, 1
        while name.casefold() in taken:
            i += 1
            name = f"{persona.name} ({i})"
        taken.add(name.casefold())
        result.append(persona if name == persona.name else persona.model_copy(update={"name": name}))
    return result


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _clip(text: str, limit: int = CHUNK_CHARS) -> str:
    """The first ``limit`` characters, cut at a word boundary when one is near."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit * 0.6 else cut).rstrip(" ,;:") + " ..."
