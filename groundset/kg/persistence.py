"""Saving and loading a KnowledgeGraph: a JSON header, nodes and structure edges (child, next) as JSON
Lines, one .npy matrix per vector property and the relationship edges as columns in one .npz file.

The round trip is exact: ids, properties, edges, graph-level records (``kg.graph.graph``: the models
and options that built it) and float32 vectors come back bit for bit.
Nodes are written and read one line at a time and relationship edges as arrays, so saving or loading a
graph of 100,000 chunks never holds its whole text, or a dict per edge, a second time.
The directory is replaced atomically, so an interrupted save leaves the previous graph intact, and a
folder that is not a graph is never replaced without ``force=True``. Graphs saved in version 1 (one
JSON file) still load.
"""

from __future__ import annotations

import io
import json
import sys
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from ..core.atomic import atomic_directory, check_output_dir
from ..core.errors import ConfigError
from .graph import STRUCTURE_ORDER, SYMMETRIC, VECTOR_PROPERTIES, KnowledgeGraph, NodeKind
from .relations import Relations
from .vectors import rows_matrix

FORMAT = "groundset-kg"
VERSION = 2
GRAPH_FILE = "graph.json"
NODES_FILE = "nodes.jsonl"
EDGES_FILE = "edges.jsonl"
RELATIONS_FILE = "relations.npz"


def save_graph(kg: KnowledgeGraph, directory: str | Path, *, force: bool = False) -> None:
    """Write ``kg`` to ``directory``, replacing it as a whole.

    The folder must be new, empty or a saved graph (it holds ``graph.json``); ``force=True`` replaces
    any other folder with everything in it. See :func:`groundset.core.atomic.check_output_dir`.
    """
    target = check_output_dir(directory, marker=GRAPH_FILE, force=force)  # fail before serialising
    order = list(kg.graph.nodes)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "graph": dict(kg.graph.graph),  # graph-level records: the models and options that built it
        "nodes": NODES_FILE,
        "edges": EDGES_FILE,
    }
    with atomic_directory(target, marker=GRAPH_FILE, checked=True) as staging:
        vectors: dict[str, tuple[list[str], list[np.ndarray]]] = {}
        with open(staging / NODES_FILE, "w", encoding="utf-8") as out:
            for node_id, data in kg.graph.nodes(data=True):
                record = {"id": node_id}
                for name, value in data.items():
                    if name in VECTOR_PROPERTIES and value is not None:
                        ids, rows = vectors.setdefault(name, ([], []))
                        ids.append(node_id)
                        rows.append(value)
                    else:
                        record[name] = value
                out.write(_line(record))
        with open(staging / EDGES_FILE, "w", encoding="utf-8") as out:
            for source, target_id, _, data in kg.edges():
                if data["kind"] not in {k.value for k in SYMMETRIC}:
                    out.write(_line({"source": source, "target": target_id, **data}))
        header["vectors"] = {}
        for name, (ids, rows) in vectors.items():
            dims = {np.shape(row) for row in rows}
            if len(dims) != 1:
                raise ValueError(f"cannot save property {name!r}: vectors of different shapes {sorted(dims)}")
            matrix, _ = rows_matrix(rows)  # the embedding stage's matrix itself where it can be
            del rows
            _write_array(staging / f"{name}.npy", matrix)
            del matrix
            header["vectors"][name] = {"file": f"{name}.npy", "ids": ids}
        header["relations"] = _save_relations(kg.relations, order, staging / RELATIONS_FILE)
        text = json.dumps(header, ensure_ascii=False, indent=1, default=_json_default)
        (staging / GRAPH_FILE).write_text(text, encoding="utf-8")


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, default=_json_default) + "\n"


def _write_array(path: Path, array: np.ndarray) -> None:
    with open(path, "wb") as out:
        np.save(out, array, allow_pickle=False)


def _save_relations(relations: Relations, order: list[str], path: Path) -> dict[str, Any]:
    """The relationship edges as columns over the nodes' saved order; the shared-items tuples once each."""
    saved_place = relations.places({node: i for i, node in enumerate(order)})
    columns: dict[str, np.ndarray] = {}
    used: list[np.ndarray] = []
    kinds = [k.value for k in SYMMETRIC if relations.count(k.value)]
    for kind in kinds:
        source, target, score, shared = relations.columns(kind)
        columns[f"{kind}.source"] = saved_place[source].astype(np.int32)
        columns[f"{kind}.target"] = saved_place[target].astype(np.int32)
        columns[f"{kind}.score"] = score
        columns[f"{kind}.shared"] = shared
        used.append(shared[shared >= 0])
    kept = np.unique(np.concatenate(used)) if used else np.zeros(0, np.int32)
    renumber = np.full(max(1, len(relations.shared_items)), -1, dtype=np.int32)
    renumber[kept] = np.arange(len(kept), dtype=np.int32)
    for kind in kinds:
        shared = columns[f"{kind}.shared"]
        columns[f"{kind}.shared"] = np.where(shared >= 0, renumber[np.maximum(shared, 0)], -1).astype(
            np.int32
        )
    with open(path, "wb") as out:  # straight to the file: a buffer would hold the columns twice more
        np.savez(out, **columns)
    return {
        "file": path.name,
        "kinds": kinds,
        "shared": [list(relations.shared_items[i]) for i in kept.tolist()],
    }


def load_graph(directory: str | Path) -> KnowledgeGraph:
    folder = Path(directory)
    path = folder / GRAPH_FILE
    if not path.is_file():
        raise ConfigError(
            f"not a groundset knowledge graph: {path} is missing (build one with `groundset kg build`)"
        )
    try:
        header = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the knowledge graph {path}: {exc}") from exc
    version = header.get("version") if isinstance(header, dict) else None
    if not isinstance(header, dict) or header.get("format") != FORMAT or version not in (1, VERSION):
        raise ConfigError(
            f"{path} is not a {FORMAT} v1 or v{VERSION} file (found {_get(header, 'format')!r} "
            f"v{_get(header, 'version')!r}); rebuild it with `groundset kg build`"
        )
    graph = nx.MultiDiGraph()
    graph.graph.update(header.get("graph") or {})  # absent in graphs saved before it was recorded
    kg = KnowledgeGraph(graph)
    if version == 1:
        node_records: Any = header["nodes"]
        edge_records: Any = header["edges"]
    else:
        node_records = _records(folder / header["nodes"])
        edge_records = _records(folder / header["edges"])
    order: list[str] = []
    for record in node_records:
        node_id = record.pop("id")
        NodeKind(record["kind"])
        graph.add_node(node_id, **_shared_strings(record))
        order.append(node_id)
    if version == 1:
        for record in edge_records:
            source, target = record.pop("source"), record.pop("target")
            record.pop("symmetric", None)
            kg.add_edge(source, target, record.pop("kind"), **record)
    else:
        _load_structure(kg, order, edge_records, folder / header["edges"])
    for name, entry in header.get("vectors", {}).items():
        matrix = _read_array(folder / entry["file"])
        if matrix.shape[0] != len(entry["ids"]):
            raise ConfigError(
                f"{folder / entry['file']} has {matrix.shape[0]} rows for {len(entry['ids'])} nodes"
            )
        for node_id, row in zip(entry["ids"], matrix, strict=True):
            graph.nodes[node_id][name] = row
    if version != 1 and header.get("relations"):
        _load_relations(kg, order, folder, header["relations"])
    return kg


def _shared_strings(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the strings of its lists (entities, keyphrases, themes) interned: the JSON decoder
    makes a new string for every occurrence, and the same entity is in thousands of chunks."""
    for name, value in record.items():
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            record[name] = [sys.intern(item) for item in value]
    return record


def _get(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else None


def _records(path: Path) -> Iterator[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if line.strip():
                    try:
                        yield json.loads(line)
                    except ValueError as exc:
                        raise ConfigError(f"cannot read {path}, line {number}: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read the knowledge graph {path}: {exc}") from exc


def _read_array(path: Path, **options: Any) -> Any:
    try:
        return np.load(path, allow_pickle=False, **options)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc


def _load_structure(
    kg: KnowledgeGraph, order: list[str], records: Iterator[dict[str, Any]], path: Path
) -> None:
    """The structure edges (one JSON line each) as columns: no dict an edge is kept."""
    place = {node: i for i, node in enumerate(order)}
    structure = {k.value for k in STRUCTURE_ORDER}
    columns: dict[str, tuple[array, array]] = {}
    for number, record in enumerate(records, 1):
        kind = record.get("kind")
        if kind not in structure:
            raise ConfigError(f"{path}, edge {number}: {kind!r} is not a structure edge (child or next)")
        ends = place.get(record.get("source")), place.get(record.get("target"))
        if None in ends:
            raise ConfigError(f"{path}, edge {number}: it names a node that nodes.jsonl does not hold")
        sources, targets = columns.setdefault(kind, (array("q"), array("q")))
        sources.append(ends[0])
        targets.append(ends[1])
    for kind, (sources, targets) in columns.items():
        source, target = np.frombuffer(sources, np.int64), np.frombuffer(targets, np.int64)
        score, shared = np.full(len(source), np.nan), np.full(len(source), -1, dtype=np.int64)
        kg.relations.load_columns(kind, order, [], source, target, score, shared)


def _load_relations(kg: KnowledgeGraph, order: list[str], folder: Path, entry: dict[str, Any]) -> None:
    shared = [tuple(items) for items in entry.get("shared", [])]
    with _read_array(folder / entry["file"]) as columns:
        for kind in entry.get("kinds", []):
            try:
                source, target = columns[f"{kind}.source"], columns[f"{kind}.target"]
                score, items = columns[f"{kind}.score"], columns[f"{kind}.shared"]
            except KeyError as exc:
                raise ConfigError(f"{folder / entry['file']} has no {exc} column") from exc
            if max(source.max(initial=-1), target.max(initial=-1)) >= len(order) or items.max(
                initial=-1
            ) >= len(shared):
                raise ConfigError(
                    f"{folder / entry['file']}: {kind} edges name nodes or items it does not have"
                )
            kg.relations.load_columns(kind, order, shared, source, target, score, items)


def write_graphml(kg: KnowledgeGraph, path: str | Path) -> None:
    """GraphML for other graph tools: lists and dicts become JSON strings; vectors are left out."""
    from ..core.atomic import atomic_write_bytes

    flat = nx.MultiDiGraph()
    for node_id, data in kg.graph.nodes(data=True):
        flat.add_node(node_id, **{k: _scalar(v) for k, v in data.items() if k not in VECTOR_PROPERTIES})
    for s, t, key, data in kg.edges():
        flat.add_edge(s, t, key=key, **{k: _scalar(v) for k, v in data.items()})
    buffer = io.BytesIO()
    nx.write_graphml(flat, buffer)
    atomic_write_bytes(path, buffer.getvalue())


def _scalar(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, ensure_ascii=False, default=_json_default)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, set | frozenset | tuple):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    raise TypeError(f"property value of type {type(value).__name__} cannot be saved as JSON")
