"""Personas from the graph: cluster what the documents are about, one persona per cluster.

Documents are clustered by their summaries, so each persona stands for one region of the
corpus. A corpus of short documents has no summaries; its chunks stand in for them. The
order of everything (inputs, clusters, representatives, themes) is fixed, so the same graph
gives the same prompt inputs, hence cache hits and identical personas on a rerun.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.cluster import KMeans
from sklearn.preprocessing import normalize

from ..core.aio import run_sync
from ..core.engine import CallEngine, get_engine
from ..core.models import resolve_embeddings, resolve_llm
from ..kg.graph import KnowledgeGraph, NodeKind
from .model import Persona
from .prompts import PersonaInput, PersonaPrompt

log = logging.getLogger("groundset.personas")
REPRESENTATIVES = 3
THEMES = 5
CHUNK_CHARS = 300
RANDOM_STATE = 0


@dataclass(frozen=True)
class _Item:
    """One thing to cluster: a document summary, or a chunk when there are no summaries."""

    id: str
    text: str
    themes: tuple[str, ...]
    vector: np.ndarray | None


@dataclass(frozen=True)
class Cluster:
    """Members (ids, most central first), representative texts and dominant themes."""

    ids: tuple[str, ...]
    summaries: tuple[str, ...]
    themes: tuple[str, ...]


async def agenerate_personas(
    kg: KnowledgeGraph,
    n: int = 4,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    prompt: PersonaPrompt | None = None,
) -> list[Persona]:
    """Up to ``n`` personas, one per cluster of the documents' summaries, biggest cluster first."""
    model = resolve_llm(llm).model
    engine = engine or get_engine()
    clusters = await acluster_documents(kg, n, embeddings=embeddings, engine=engine)
    prompt = prompt or PersonaPrompt()
    personas = await asyncio.gather(
        *(
            prompt.run(
                model,
                PersonaInput(summaries=list(c.summaries), themes=list(c.themes)),
                engine=engine,
                stage="personas.generate",
            )
            for c in clusters
        )
    )
    return unique_names(personas)


def generate_personas(
    kg: KnowledgeGraph,
    n: int = 4,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    prompt: PersonaPrompt | None = None,
) -> list[Persona]:
    """The sync twin of ``agenerate_personas``."""
    return run_sync(agenerate_personas(kg, n, llm=llm, embeddings=embeddings, engine=engine, prompt=prompt))


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
    matrix = await _vectors(items, embeddings, engine or get_engine())
    # KMeans is CPU work: keep it off the shared event loop that serves every model call.
    groups = await asyncio.to_thread(_kmeans, matrix, min(n, len(items)))
    groups.sort(key=lambda g: (-len(g), min(items[i].id for i in g)))
    themes = dominant_themes([[items[i].themes for i in group] for group in groups])
    return [
        Cluster(
            ids=tuple(items[i].id for i in group),
            summaries=_representatives([items[i].text for i in group]),
            themes=tuple(top),
        )
        for group, top in zip(groups, themes, strict=True)
    ]


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
    summarised = [d for d in docs if _text(kg.get(d).get("summary"))]
    if summarised:
        return [_item(kg, d, kg.get(d)["summary"], "summary_embedding") for d in summarised]
    chunks = sorted(c for c in kg.nodes(NodeKind.CHUNK) if _text(kg.get(c).get("text")))
    if chunks:
        log.info("no document has a summary (short documents): clustering %d chunks instead", len(chunks))
        return [_item(kg, c, _clip(kg.get(c)["text"]), "embedding") for c in chunks]
    with_text = [d for d in docs if _text(kg.get(d).get("text"))]
    return [_item(kg, d, _clip(kg.get(d)["text"]), "") for d in with_text]


def _item(kg: KnowledgeGraph, node: str, text: str, vector_key: str) -> _Item:
    data = kg.get(node)
    vector = data.get(vector_key) if vector_key else None
    themes = tuple(t for t in (data.get("themes") or ()) if isinstance(t, str) and t.strip())
    return _Item(node, text.strip(), themes, None if vector is None else np.asarray(vector, np.float32))


async def _vectors(items: list[_Item], embeddings: Any, engine: CallEngine) -> np.ndarray:
    """Stored vectors when every item has one of the same shape; else embed all texts (one space)."""
    stored = [item.vector for item in items]
    vectors = [v for v in stored if v is not None and v.ndim == 1 and v.size]
    if len(vectors) == len(stored) and len({v.shape for v in vectors}) == 1:
        return np.vstack(vectors)
    model = resolve_embeddings(embeddings).model
    return await engine.embed(model, [item.text for item in items], stage="personas.embed")


def _kmeans(matrix: np.ndarray, k: int) -> list[list[int]]:
    """KMeans on unit vectors (cosine geometry); each group lists its members nearest-centroid first."""
    points = normalize(np.asarray(matrix, dtype=np.float64))
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


def unique_names(personas: list[Persona]) -> list[Persona]:
    """Suffix repeated names (compared case-insensitively) with " (2)", " (3)", ... in order."""
    taken: set[str] = set()
    result = []
    for persona in personas:
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
