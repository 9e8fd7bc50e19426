"""Does a test set match the graph it is scored against?

A generated test set names its reference chunks by id, and records the fingerprint of the graph it was
written from. Scored with a target that retrieves from an updated graph (the baseline with ``--kg``),
the chunks that changed have new ids, so ID-based recall drops for no fault of the retriever. The check
compares the two fingerprints, before any question is asked, and says what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.records import json_lines
from ..kg.graph import KnowledgeGraph
from ..samples.dataset import EvaluationDataset
from ..samples.testset import CSV_META_SUFFIX, HEADER_KEY, Testset

GRAPH_KEY = "graph_fingerprint"


class GraphMismatchWarning(UserWarning):
    """The test set was written from another graph than the one the target retrieves from."""


def graph_mismatch(testset: Any, dataset: EvaluationDataset, target: Any) -> str:
    """What is wrong when ``target`` retrieves from a graph ``testset`` was not written from; '' when it
    was, when the target has no graph, or when the test set does not say which graph it came from."""
    kg = getattr(target, "kg", None)
    if not isinstance(kg, KnowledgeGraph):
        return ""
    written = written_from(testset, dataset)
    current = kg.fingerprint()
    if not written or current in written:
        return ""
    cited = [s for s in dataset if s.reference_context_ids]
    missing = sum(any(node not in kg for node in s.reference_context_ids or ()) for s in cited)
    effect = (
        f"{missing} of {len(cited)} samples cite reference chunks this graph does not have, which ID-based "
        "retrieval metrics count as misses"
        if missing
        else "every reference chunk the samples cite is still in it, but the test set was not refreshed "
        "for what changed"
    )
    return (
        f"the test set was written from graph {', '.join(sorted(written))}, but the target retrieves from "
        f"graph {current}: {effect}. Refresh the test set against this graph: "
        "`groundset generate --kg KG --refresh TESTSET --out TESTSET`"
    )


def written_from(testset: Any, dataset: EvaluationDataset) -> set[str]:
    """The fingerprints of the graph(s) a test set was written from: its header's, else its samples' (a
    refresh keeps samples written from an older graph, so any of them matching is a match)."""
    if isinstance(testset, Testset):
        header = testset.metadata.get(GRAPH_KEY)
        samples = {s.graph_fingerprint for s in testset}
    else:
        header = _file_header(Path(testset)).get(GRAPH_KEY) if isinstance(testset, str | Path) else None
        samples = {s.metadata.get(GRAPH_KEY) for s in dataset}
    if isinstance(header, str) and header:
        return {header}
    return {value for value in samples if isinstance(value, str) and value}


def _file_header(path: Path) -> dict[str, Any]:
    """The metadata of a test-set file's header (a CSV test set keeps it beside the file); {} without one."""
    if path.suffix.lower() == ".csv":
        sidecar = path.with_name(path.name + CSV_META_SUFFIX)
        records = json_lines(sidecar, "testset metadata", notify=False) if sidecar.is_file() else iter(())
    else:
        records = json_lines(path, "testset", notify=False)
    first = next((record for _, record in records), None)
    if not isinstance(first, dict) or HEADER_KEY not in first:
        return {}
    metadata = first.get("metadata")
    return metadata if isinstance(metadata, dict) else {}
