"""Saving and loading a KnowledgeGraph: JSON for nodes and edges, one .npy matrix per vector property.

The round trip is exact: ids, properties, edges, graph-level records (``kg.graph.graph``: the models
and options that built it) and float32 vectors come back bit for bit.
The directory is replaced atomically, so an interrupted save leaves the previous graph intact, and a
folder that is not a graph is never replaced without ``force=True``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from ..core.atomic import atomic_directory, check_output_dir
from ..core.errors import ConfigError
from .graph import VECTOR_PROPERTIES, KnowledgeGraph, NodeKind

FORMAT = "groundset-kg"
VERSION = 1
GRAPH_FILE = "graph.json"


def save_graph(kg: KnowledgeGraph, directory: str | Path, *, force: bool = False) -> None:
    """Write ``kg`` to ``directory``, replacing it as a whole.

    The folder must be new, empty or a saved graph (it holds ``graph.json``); ``force=True`` replaces
    any other folder with everything in it. See :func:`groundset.core.atomic.check_output_dir`.
    """
    target = check_output_dir(directory, marker=GRAPH_FILE, force=force)  # fail before serialising
    nodes: list[dict[str, Any]] = []
    vectors: dict[str, tuple[list[str], list[np.ndarray]]] = {}
    for node_id, data in kg.graph.nodes(data=True):
        record = {"id": node_id}
        for name, value in data.items():
            if name in VECTOR_PROPERTIES and value is not None:
                ids, rows = vectors.setdefault(name, ([], []))
                ids.append(node_id)
                rows.append(np.asarray(value, dtype=np.float32))
            else:
                record[name] = value
        nodes.append(record)
    edges = [{"source": s, "target": t, **{k: v for k, v in data.items()}} for s, t, _, data in kg.edges()]
    matrices: dict[str, dict[str, Any]] = {}
    for name, (ids, rows) in vectors.items():
        dims = {row.shape for row in rows}
        if len(dims) != 1:
            raise ValueError(f"cannot save property {name!r}: vectors of different shapes {sorted(dims)}")
        matrices[name] = {"file": f"{name}.npy", "ids": ids, "matrix": np.vstack(rows)}
    document = {
        "format": FORMAT,
        "version": VERSION,
        "graph": dict(kg.graph.graph),  # graph-level records: the models and options that built it
        "nodes": nodes,
        "edges": edges,
        "vectors": {name: {"file": m["file"], "ids": m["ids"]} for name, m in matrices.items()},
    }
    text = json.dumps(document, ensure_ascii=False, indent=1, default=_json_default)
    with atomic_directory(target, marker=GRAPH_FILE, checked=True) as staging:
        (staging / GRAPH_FILE).write_text(text, encoding="utf-8")
        for matrix in matrices.values():
            buffer = io.BytesIO()
            np.save(buffer, matrix["matrix"], allow_pickle=False)
            (staging / matrix["file"]).write_bytes(buffer.getvalue())


def load_graph(directory: str | Path) -> KnowledgeGraph:
    folder = Path(directory)
    path = folder / GRAPH_FILE
    if not path.is_file():
        raise ConfigError(
            f"not a groundset knowledge graph: {path} is missing (build one with `groundset kg build`)"
        )
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the knowledge graph {path}: {exc}") from exc
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ConfigError(
            f"{path} is not a {FORMAT} v{VERSION} file (found {document.get('format')!r} "
            f"v{document.get('version')!r}); rebuild it with `groundset kg build`"
        )
    graph = nx.MultiDiGraph()
    graph.graph.update(document.get("graph") or {})  # absent in graphs saved before it was recorded
    for record in document["nodes"]:
        data = dict(record)
        node_id = data.pop("id")
        NodeKind(data["kind"])
        graph.add_node(node_id, **data)
    for record in document["edges"]:
        data = dict(record)
        source, target = data.pop("source"), data.pop("target")
        graph.add_edge(source, target, key=data["kind"], **data)
    for name, entry in document.get("vectors", {}).items():
        matrix_path = folder / entry["file"]
        try:
            matrix = np.load(matrix_path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read vectors {matrix_path}: {exc}") from exc
        if matrix.shape[0] != len(entry["ids"]):
            raise ConfigError(f"{matrix_path} has {matrix.shape[0]} rows for {len(entry['ids'])} nodes")
        for node_id, row in zip(entry["ids"], matrix, strict=True):
            graph.nodes[node_id][name] = row
    return KnowledgeGraph(graph)


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
