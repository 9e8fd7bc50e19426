"""A graph's documents by source path, as a test set records them, and which changed between two records.

A document id is content addressed, so two records tell which sources are new, changed or removed without
the documents themselves: ``refresh`` compares the old test set's record with the new graph, ``groundset
diff`` two test sets' records.
"""

from __future__ import annotations

from collections.abc import Mapping

from .graph import KnowledgeGraph, NodeKind


def graph_documents(kg: KnowledgeGraph) -> dict[str, str]:
    """Source path -> document id (content addressed): what a later refresh compares to find the
    documents that are new, changed or gone."""
    return {kg.get(d)["source"]: d for d in kg.nodes(NodeKind.DOCUMENT)}


def document_changes(old: Mapping[str, str], new: Mapping[str, str]) -> dict[str, list[str]]:
    """Sources ``new`` (only in ``new``), ``changed`` (in both, another document id) and ``removed`` (only
    in ``old``), each sorted. A renamed file is one removed and one new source here."""
    return {
        "new": sorted(s for s in new if s not in old),
        "changed": sorted(s for s in new if s in old and old[s] != new[s]),
        "removed": sorted(s for s in old if s not in new),
    }
