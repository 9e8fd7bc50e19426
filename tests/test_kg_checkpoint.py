"""A stopped `kg build` resumes where it stopped (issue 32): the stages its checkpoint holds are not run
again, and in the stage it was stopped in only the batches of per-text work it lacks are; the graph is the
one an uninterrupted build gives. A checkpoint of other inputs is never resumed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from groundset.cli import main
from groundset.core import CallEngine
from groundset.core.backends import LocalBackend
from groundset.kg import build_knowledge_graph
from groundset.kg.checkpoint import BuildCheckpoint
from groundset.kg.persistence import load_graph

from .corpora import copy_example_pages

PAGES = ("concepts/data_model.md", "concepts/jobs_instances.md", "practices/naming.md",
         "practices/alerting.md", "introduction/overview.md", "practices/instrumentation.md")  # fmt: skip


class Stopped(Exception):
    """Stands for the kill: raised from inside a stage, after some of its batches were done."""


class CountingBackend(LocalBackend):
    """Runs batches here, counting them per function; ``stop_after``: raise after that many batches."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__(batch_items=3)
        self.stop_after = stop_after
        self.ran: dict[str, int] = {}

    def map_each(
        self,
        fn: Callable[..., Any],
        batches: Sequence[list[Any]],
        *,
        shared: Any = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[Any]:
        results = []
        for batch in batches:
            if self.stop_after is not None and sum(self.ran.values()) >= self.stop_after:
                raise Stopped("killed")
            self.ran[fn.__name__] = self.ran.get(fn.__name__, 0) + 1
            results.append(fn(batch) if shared is None else fn(batch, shared))
            if progress is not None:
                progress(len(batch))
        return results


def copy_pages(root):
    return copy_example_pages(root, PAGES)


def build(docs, checkpoint, backend):
    return build_knowledge_graph(docs, engine=CallEngine(cache=False), backend=backend, checkpoint=checkpoint)


def test_a_build_stopped_in_a_stage_resumes_there_and_gives_the_same_graph(tmp_path):
    docs = copy_pages(tmp_path)
    whole = CountingBackend()
    expected = build(docs, None, whole).kg
    total = sum(whole.ran.values())
    assert whole.ran["_chunk_facts_of"] >= 4  # the chunk facts stage has several batches to stop between

    folder = tmp_path / ".kg.checkpoint"
    relationships = whole.ran.get("block_pairs", 0) + whole.ran.get("list_topk", 0)
    stopped = CountingBackend(stop_after=total - relationships - 2)  # two batches of chunk facts short
    with pytest.raises(Stopped):
        build(docs, BuildCheckpoint(folder, min_stage_seconds=0), stopped)
    assert (folder / "graph" / "graph.json").is_file()

    resumed = CountingBackend()
    checkpoint = BuildCheckpoint(folder, min_stage_seconds=0)
    result = build(docs, checkpoint, resumed)
    assert result.kg.fingerprint() == expected.fingerprint()
    assert sum(resumed.ran.values()) - relationships <= 2  # only what the stopped build had not done
    done = [stage.name for stage in result.report.stages if stage.resumed]
    assert done[:2] == ["headlines", "split at headlines"] and "chunk facts" not in done
    assert checkpoint.stages_done == len(done) and checkpoint.batches_reused > 0
    assert "resumed from the checkpoint" in checkpoint.summary()
    assert not folder.exists()  # removed once the build is done


def test_kept_batches_are_read_back_and_counted_in_the_progress(tmp_path):
    """A resumed stage's bar starts with the items of the batches it kept; only the others run."""
    checkpoint = BuildCheckpoint(tmp_path / "c", "an identity")
    counting = CountingBackend()
    kept = checkpoint.backend(counting)
    heard: list[int] = []
    assert kept.map_batches(len, ["ab", "c", "d", "e"], progress=heard.append) == [3, 1] and heard == [3, 1]
    assert kept.map_batches(len, ["ab", "c", "d", "f"], progress=heard.append) == [3, 1] and heard[2:] == [
        3,
        1,
    ]
    assert counting.ran == {"len": 3} and (checkpoint.batches_reused, checkpoint.batches_run) == (1, 3)
    checkpoint.remove()
    assert not (tmp_path / "c").exists()


def test_a_checkpoint_of_other_documents_is_removed_not_resumed(tmp_path):
    docs = copy_pages(tmp_path)
    folder = tmp_path / ".kg.checkpoint"
    with pytest.raises(Stopped):
        build(docs, BuildCheckpoint(folder, min_stage_seconds=0), CountingBackend(stop_after=4))
    (docs / PAGES[0]).write_text("# Data model\n\nA page that changed while the build was stopped.\n")
    resumed = CountingBackend()
    checkpoint = BuildCheckpoint(folder, min_stage_seconds=0)
    result = build(docs, checkpoint, resumed)
    assert checkpoint.started_afresh and checkpoint.stages_done == 0 and checkpoint.batches_reused == 0
    assert not any(stage.resumed for stage in result.report.stages)
    assert result.kg.fingerprint() == build(docs, None, CountingBackend()).kg.fingerprint()


def test_kg_build_resumes_from_its_checkpoint_beside_out(tmp_path, monkeypatch, capsys):
    """The command keeps its checkpoint in .<out>.checkpoint; after a crash in the embedding stage the
    same command reuses every batch done before it and says so; the folder goes with the saved graph.
    (A crash stands for the kill: a KeyboardInterrupt raised on groundset's event loop thread would stop
    that loop, which a real Ctrl-C, delivered to the main thread, never does.)"""
    docs = copy_pages(tmp_path)
    out = tmp_path / "kg"
    from groundset.kg.extractors import EmbeddingExtractor

    original = EmbeddingExtractor.apply

    async def crashed(self, kg, nodes, ctx):
        raise OSError("No space left on device")

    monkeypatch.setattr(EmbeddingExtractor, "apply", crashed)
    assert main(["kg", "build", str(docs), "--out", str(out), "--no-cache", "-q"]) == 1
    checkpoint = tmp_path / ".kg.checkpoint"
    assert "run the same command again to resume" in " ".join(capsys.readouterr().err.split())
    assert checkpoint.is_dir() and not out.exists()
    monkeypatch.setattr(EmbeddingExtractor, "apply", original)
    assert main(["kg", "build", str(docs), "--out", str(out), "--no-cache", "-q"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    kept = printed.split("resumed from the checkpoint: 0 stages done, ")[1].split(" batches")[0]
    reused, total = kept.split(" of ")
    assert int(reused) > 0 and int(total) - int(reused) == 2  # only the blocks of the two overlap stages,
    # which come after the crash, ran
    assert not checkpoint.exists() and load_graph(out).nodes()
