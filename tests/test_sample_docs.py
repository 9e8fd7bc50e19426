"""`generate --sample-docs N` (issue 32): a test set of a corpus too big to build whole comes from a graph of
a stratified sample of its documents, which the graph and the test set record, so `kg update` and a refresh
keep to the same documents."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest
from langchain_core.documents import Document

from groundset.cli import main
from groundset.core import ConfigError
from groundset.documents.sampling import literal_globs, sample_documents
from groundset.documents.walker import glob_regex
from groundset.kg.graph import NodeKind
from groundset.kg.persistence import load_graph

from .corpora import PROMETHEUS_DOCS


def docs_of(folders: dict[str, int]) -> list[Document]:
    return [
        Document(
            page_content=f"{folder} page {i}: how {folder} works, step {i}.",
            metadata={"source": f"{folder}/p{i}.md"},
        )
        for folder, count in folders.items()
        for i in range(count)
    ]


def test_a_sample_takes_each_folder_by_its_share_and_the_same_seed_the_same_documents():
    documents = docs_of({"guides": 30, "reference": 10})
    chosen = sample_documents(documents, 8, seed=1)
    assert len(chosen) == 8
    assert Counter(d.metadata["source"].split("/")[0] for d in chosen) == {"guides": 6, "reference": 2}
    assert [d.metadata["source"] for d in sample_documents(documents, 8, seed=1)] == [
        d.metadata["source"] for d in chosen
    ]
    assert chosen == sorted(chosen, key=documents.index)  # in the corpus's order
    assert sample_documents(documents, 40) == documents
    with pytest.raises(ConfigError, match="at least 1"):
        sample_documents(documents, 0)


def test_the_sample_is_written_as_globs_that_match_exactly_its_paths():
    globs = literal_globs(["index.md", "docs/a[1].md", "docs/what?.md"])
    assert globs == ["/index.md", "/docs/a[[]1].md", "/docs/what[?].md"]
    assert glob_regex(globs[0]).fullmatch("index.md") and not glob_regex(globs[0]).fullmatch("docs/index.md")
    assert glob_regex(globs[1]).fullmatch("docs/a[1].md") and not glob_regex(globs[1]).fullmatch("docs/a1.md")
    assert glob_regex(globs[2]).fullmatch("docs/what?.md") and not glob_regex(globs[2]).fullmatch(
        "docs/whatX.md"
    )
    assert glob_regex("index.md").fullmatch("docs/index.md")  # unanchored: any depth, as before


def test_generate_over_a_sample_then_update_and_refresh_keep_to_it(tmp_path, capsys):
    docs = tmp_path / "docs"
    for page in sorted(PROMETHEUS_DOCS.rglob("*.md"))[:24]:
        target = docs / page.relative_to(PROMETHEUS_DOCS)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(page, target)
    first, kg_dir = tmp_path / "first.jsonl", tmp_path / "kg"
    args = ["generate", str(docs), "--sample-docs", "8", "-n", "6", "--seed", "2", "--out", str(first)]
    assert main([*args, "--save-kg", str(kg_dir), "-q"]) == 0
    said = capsys.readouterr().out
    assert "sampled 8 of " in said and "stratified by top folder and topic" in said
    kg = load_graph(kg_dir)
    sources = sorted(kg.get(d)["source"] for d in kg.nodes(NodeKind.DOCUMENT))
    assert len(sources) <= 8 and kg.graph.graph["sample_docs"]["documents"] == 8
    recorded = json.loads(first.read_text(encoding="utf-8").splitlines()[0])["metadata"]["sample_docs"]
    assert len(recorded["include"]) == 8 and all(g.startswith("/") for g in recorded["include"])
    # an edit of a page outside the sample is no new document of the sampled graph
    outside = next(p for p in sorted(docs.rglob("*.md")) if p.relative_to(docs).as_posix() not in sources)
    outside.write_text(outside.read_text(encoding="utf-8") + "\nA new paragraph.\n", encoding="utf-8")
    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    capsys.readouterr()
    updated = load_graph(kg_dir)
    assert sorted(updated.get(d)["source"] for d in updated.nodes(NodeKind.DOCUMENT)) == sources
    # a refresh from DOCS uses the sample the old test set recorded, and keeps its samples
    again = tmp_path / "again.jsonl"
    refresh = [
        "generate",
        str(docs),
        "--sample-docs",
        "8",
        "--refresh",
        str(first),
        "--out",
        str(again),
        "-q",
    ]
    assert main(refresh) == 0
    out = capsys.readouterr().out
    assert "sampled 8 of " in out
    kept = json.loads(again.read_text(encoding="utf-8").splitlines()[0])["metadata"]["sample_docs"]
    assert kept == recorded
    assert ids(first) and ids(first) <= ids(again)


def ids(path):
    return {json.loads(line).get("id") for line in path.read_text(encoding="utf-8").splitlines()[1:]}


def test_sample_docs_needs_a_docs_folder(tmp_path, capsys):
    code = main(["generate", "--kg", str(tmp_path / "kg"), "--sample-docs", "5", "-q"])
    assert code != 0 and "--sample-docs needs DOCS" in capsys.readouterr().err
