"""Output safety: --out never destroys what is not ours, checks run first, new outputs are private."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import ConfigError, atomic
from groundset.core.atomic import atomic_write_text
from groundset.kg import persistence
from groundset.kg.graph import EdgeKind, KnowledgeGraph
from groundset.personas import Persona
from groundset.personas.io import save_personas

from .corpora import EXAMPLE_DOCS

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes and umask are POSIX")


def tiny_graph(text: str = "alpha text") -> KnowledgeGraph:
    kg = KnowledgeGraph()
    doc = kg.add_document(f"# A\n{text}", source="a.md", title="A")
    one = kg.add_chunk(doc, text, position=0, entities=["Alpha"])
    two = kg.add_chunk(doc, text + " more", position=1)
    kg.add_edge(one, two, EdgeKind.NEXT)
    kg.set(one, embedding=np.ones(4, dtype=np.float32))
    kg.set(two, embedding=np.zeros(4, dtype=np.float32))
    return kg


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def docs(tmp_path) -> Path:
    folder = tmp_path / "docs"
    shutil.copytree(EXAMPLE_DOCS / "introduction", folder)
    return folder


@pytest.fixture
def no_build(monkeypatch):
    """Any build fails loudly: a check that passes lets the test see 'build ran' in the error."""

    def refuse(*args, **kwargs):
        raise AssertionError("build ran")

    monkeypatch.setattr("groundset.kg.build_knowledge_graph", refuse)


def kg_build(docs: Path, out: Path | str, *extra: str) -> int:
    return main(["kg", "build", str(docs), "--out", str(out), "--no-cache", "--quiet", *extra])


# -- the output folder ---------------------------------------------------------------------------


def test_unrelated_non_empty_folder_is_refused_before_the_build(docs, tmp_path, no_build, capsys):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert kg_build(docs, out) == 1
    err = capsys.readouterr().err
    assert "build ran" not in err and str(out) in err and "--force" in err and "not empty" in err
    assert snapshot(out) == {"notes.txt": b"mine"}
    with pytest.raises(ConfigError, match="not empty"):
        tiny_graph().save(out)
    assert snapshot(out) == {"notes.txt": b"mine"}


def test_force_replaces_a_non_empty_folder(docs, tmp_path):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert kg_build(docs, out, "--force") == 0
    assert not (out / "notes.txt").exists() and KnowledgeGraph.load(out).nodes()
    (out / "notes.txt").write_text("mine")
    tiny_graph().save(out, force=True)
    assert not (out / "notes.txt").exists()


def test_a_previous_graph_is_replaced_without_force(docs, tmp_path):
    out = tmp_path / "kg"
    assert kg_build(docs, out) == 0
    assert kg_build(docs, out) == 0
    tiny_graph("beta").save(out)
    assert KnowledgeGraph.load(out).fingerprint() == tiny_graph("beta").fingerprint()
    assert sorted(os.listdir(tmp_path)) == ["docs", "kg"]


def test_output_at_inside_or_around_the_docs_is_refused_before_the_build(docs, tmp_path, no_build, capsys):
    before = snapshot(docs)
    for out, extra in ((docs, ()), (docs / "kg", ()), (docs / "a" / "kg", ()), (tmp_path, ("--force",))):
        assert kg_build(docs, out, *extra) == 1, out
        err = capsys.readouterr().err
        assert "build ran" not in err and "input" in err and str(docs) in err, err
    save_kg = ["generate", str(docs), "-n", "1", "--out", str(tmp_path / "t.jsonl"), "-q"]
    assert main([*save_kg, "--save-kg", str(docs / "kg")]) == 1
    assert "inside the input" in capsys.readouterr().err
    assert snapshot(docs) == before and not (tmp_path / "t.jsonl").exists()


def test_an_existing_file_is_never_turned_into_a_folder(docs, tmp_path, no_build, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    for out, extra in ((notes, ()), (notes, ("--force",)), (notes / "kg", ())):
        assert kg_build(docs, out, *extra) == 1
        err = capsys.readouterr().err
        assert "build ran" not in err and "is a file" in err and str(notes) in err, err
    with pytest.raises(ConfigError, match="is a file"):
        tiny_graph().save(notes, force=True)
    assert notes.is_file() and notes.read_text() == "mine"
    assert sorted(os.listdir(tmp_path)) == ["docs", "notes.txt"]


def test_out_dot_in_a_non_empty_folder_is_refused_and_leaves_nothing(docs, tmp_path, monkeypatch, capsys):
    work = (tmp_path / "work").resolve()
    work.mkdir()
    (work / "notes.txt").write_text("mine")
    monkeypatch.chdir(work)
    with pytest.raises(ConfigError, match="not empty"):
        tiny_graph().save(".")
    assert kg_build(docs, ".") == 1
    assert str(work) in capsys.readouterr().err
    assert sorted(os.listdir(work)) == ["notes.txt"] and sorted(os.listdir(tmp_path)) == ["docs", "work"]


def test_out_dot_is_refused_as_the_folder_you_are_in_and_a_subfolder_works(
    docs, tmp_path, monkeypatch, capsys
):
    """Replacing the current folder would leave the user's shell in a deleted folder."""
    work = (tmp_path / "work").resolve()
    work.mkdir()
    monkeypatch.chdir(work)
    assert kg_build(docs, ".") == 1
    assert "the folder you are in" in capsys.readouterr().err
    assert os.listdir(work) == [] and sorted(os.listdir(tmp_path)) == ["docs", "work"]
    assert kg_build(docs, "kg") == 0
    assert (work / "kg" / "graph.json").is_file() and Path.cwd() == work
    monkeypatch.chdir(work / "kg")
    with pytest.raises(ConfigError, match="the folder you are in"):
        tiny_graph().save(".")


def test_a_failed_save_keeps_the_old_graph_and_leaves_no_temporaries(tmp_path, monkeypatch):
    out = tmp_path / "kg"
    tiny_graph().save(out)
    expected = tiny_graph().fingerprint()

    def broken_save(*args, **kwargs):
        raise OSError("no space left on device")

    monkeypatch.setattr(np, "save", broken_save)
    with pytest.raises(OSError, match="no space"):
        tiny_graph("beta").save(out)
    monkeypatch.undo()
    assert KnowledgeGraph.load(out).fingerprint() == expected and os.listdir(tmp_path) == ["kg"]

    real_replace = os.replace

    def failing_rename(src, dst):
        if Path(src).name.endswith(".tmp"):  # the staging folder's final rename
            raise OSError("rename failed")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_rename)
    with pytest.raises(OSError, match="rename failed"):
        tiny_graph("beta").save(out)
    monkeypatch.undo()
    assert KnowledgeGraph.load(out).fingerprint() == expected and os.listdir(tmp_path) == ["kg"]


def test_staged_files_are_fsynced_on_handles_that_can_do_it(tmp_path, monkeypatch):
    """Review issue 6: some platforms (Windows) refuse to fsync a read-only handle (EBADF); the save must
    still flush its files (on writable handles) and never fail on a flush it could not do."""
    opened: dict[int, tuple[str, bool]] = {}
    synced: list[str] = []
    real_open, real_fsync = os.open, os.fsync

    def recording_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        opened[fd] = (os.fspath(path), bool(flags & (os.O_WRONLY | os.O_RDWR)))
        return fd

    def picky_fsync(fd):
        path, writable = opened.get(fd, ("", True))
        if not writable:
            raise OSError(errno.EBADF, "Bad file descriptor")
        synced.append(Path(path).name)
        real_fsync(fd)

    monkeypatch.setattr(os, "open", recording_open)
    monkeypatch.setattr(os, "fsync", picky_fsync)
    tiny_graph().save(tmp_path / "kg")
    monkeypatch.undo()
    assert KnowledgeGraph.load(tmp_path / "kg").fingerprint() == tiny_graph().fingerprint()
    assert {"graph.json", "embedding.npy"} <= set(synced)


def test_a_save_checks_its_folder_once(tmp_path, monkeypatch):
    """The early check (before serialising) is the only one: ``atomic_directory`` is told it was done."""
    checks: list[Path] = []
    real = atomic.check_output_dir

    def counting(path, **kwargs):
        checks.append(Path(path))
        return real(path, **kwargs)

    monkeypatch.setattr(atomic, "check_output_dir", counting)
    monkeypatch.setattr(persistence, "check_output_dir", counting)
    tiny_graph().save(tmp_path / "kg")
    assert checks == [tmp_path / "kg"] and (tmp_path / "kg" / "graph.json").is_file()


# -- modes ---------------------------------------------------------------------------------------


@posix_only
@pytest.mark.parametrize(("umask", "file_mode", "dir_mode"), [(0o022, 0o600, 0o700), (0o077, 0o600, 0o700)])
def test_outputs_follow_the_umask(tmp_path, umask, file_mode, dir_mode):
    """Outputs hold document text: new ones are private to the user whatever the umask allows, and an
    output that replaces one keeps the mode the user gave it."""
    shared = tmp_path / "shared.jsonl"
    shared.write_text("old\n")
    shared.chmod(0o644)
    old = os.umask(umask)
    try:
        tiny_graph().save(tmp_path / "kg")
        atomic_write_text(tmp_path / "run.jsonl", "{}\n")
        atomic_write_text(tmp_path / "new" / "deep" / "report.html", "<p>x</p>\n")
        atomic_write_text(shared, "new\n")
        save_personas([Persona(name="On-call SRE", role_description="keeps it up")], tmp_path / "p.yaml")
    finally:
        os.umask(old)
    folders = [tmp_path / "kg", tmp_path / "new", tmp_path / "new" / "deep"]
    assert {p.name: mode(p) for p in folders} == {p.name: dir_mode for p in folders}
    files = [*(tmp_path / "kg").iterdir(), tmp_path / "run.jsonl", tmp_path / "p.yaml"]
    files.append(tmp_path / "new" / "deep" / "report.html")
    assert {p.name: mode(p) for p in files} == {p.name: file_mode for p in files}
    assert shared.read_text() == "new\n" and mode(shared) == 0o644


@posix_only
def test_an_existing_output_keeps_its_mode(tmp_path):
    run = tmp_path / "run.jsonl"
    run.write_text("old\n")
    run.chmod(0o640)
    atomic_write_text(run, "new\n")
    assert run.read_text() == "new\n" and mode(run) == 0o640
    tiny_graph().save(tmp_path / "kg")
    (tmp_path / "kg").chmod(0o750)
    (tmp_path / "kg" / "graph.json").chmod(0o640)
    tiny_graph("beta").save(tmp_path / "kg")
    assert mode(tmp_path / "kg") == 0o750 and mode(tmp_path / "kg" / "graph.json") == 0o640
    assert mode(tmp_path / "kg" / "embedding.npy") == 0o600  # its namesake was private too


# -- the docs folder -----------------------------------------------------------------------------


def test_missing_or_empty_docs_fail_before_the_build(docs, tmp_path, no_build, capsys):
    missing = tmp_path / "nope"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.pdf").write_bytes(b"%PDF-1.4")
    for command in (["kg", "build"], ["generate"]):
        args = ["--out", str(tmp_path / "out"), "-q"]
        assert main([*command, str(missing), *args]) == 1
        err = capsys.readouterr().err
        assert "build ran" not in err and "not found" in err and str(missing) in err, err
        assert main([*command, str(empty), *args]) == 2
        err = capsys.readouterr().err
        assert "build ran" not in err and str(empty) in err and ".md" in err and ".rst" in err, err
    assert main(["kg", "build", str(docs), "--exclude", "*.md", "--out", str(tmp_path / "out")]) == 2
    assert "--include/--exclude" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_generate_save_kg_checks_its_folder_before_the_build(docs, tmp_path, no_build, capsys):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    args = ["generate", str(docs), "-n", "1", "--out", str(tmp_path / "t.jsonl"), "--save-kg", str(out)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "build ran" not in err and "not empty" in err and "--force" in err
    assert main([*args, "--force"]) == 1
    assert "build ran" in capsys.readouterr().err  # the checks passed; the (refused) build was next
    assert snapshot(out) == {"notes.txt": b"mine"}
