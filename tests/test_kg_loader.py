"""The corpus loader: the real docs, the messy robustness corpus, real symlinks, globs, Documents, HTML."""

from __future__ import annotations

import gzip
import logging
import os
import re
import shutil
from pathlib import Path

import pytest
from langchain_core.documents import Document

from groundset.core.errors import ConfigError
from groundset.core.hashing import stable_hash
from groundset.documents.html_text import html_to_text
from groundset.documents.loader import LoadResult, load_documents
from groundset.text.html import HIDDEN_ELEMENTS
from groundset.text.plaintext import plain_text

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
PROMETHEUS = CORPORA / "prometheus-docs" / "docs"
MESSY = CORPORA / "messy"
SYMLINKS = (
    "symlinks/loop_to_parent",
    "symlinks/self_loop.md",
    "symlinks/dangling.md",
    "symlinks/link_to_good_file.md",
)
GOOD_KEPT_ELSEWHERE = {  # good pages whose exact text an earlier path (by sorted order) already holds
    "good/concepts/data_model.md": "duplicates/Data Model (copy 2).md",
    "good/introduction/glossary.md": "bom_crlf.md",  # same page once the BOM and CRLF are normalised
}


def kinds(result: LoadResult) -> dict[str, tuple[str, str]]:
    """path -> (kind, reason) for every problem file; fails if a file has more than one entry."""
    entries = (
        [(s.path, "skipped", s.reason) for s in result.report.skipped]
        + [(r.path, "repaired", r.what) for r in result.report.repaired]
        + [(d.path, "duplicate", f"{d.reason} (of {d.duplicate_of})") for d in result.report.duplicates]
    )
    paths = [path for path, _, _ in entries]
    assert len(paths) == len(set(paths)), f"a file has more than one report entry: {sorted(paths)}"
    return {path: (kind, reason) for path, kind, reason in entries}


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def check_documents(result: LoadResult) -> None:
    """Invariants every returned Document keeps, whatever the input."""
    assert [d.metadata["source"] for d in result.documents] == result.report.loaded
    for doc in result.documents:
        meta = doc.metadata
        assert doc.page_content.strip(), meta["source"]
        assert doc.page_content == doc.page_content.rstrip()
        assert "\r" not in doc.page_content and "\x00" not in doc.page_content
        assert meta["title"] and isinstance(meta["title"], str)
        assert meta["content_hash"] == stable_hash(doc.page_content)
        assert isinstance(meta["size"], int) and meta["size"] > 0
        assert meta["format"] in {"markdown", "text", "rst", "html"}


# --- the real corpus -------------------------------------------------------------------------------


def test_real_corpus_loads_every_page_deterministically():
    files = sorted(p.relative_to(PROMETHEUS).as_posix() for p in PROMETHEUS.rglob("*.md"))
    assert len(files) == 71
    first = load_documents(PROMETHEUS)
    second = load_documents(PROMETHEUS)
    check_documents(first)
    assert first.root == PROMETHEUS.resolve()
    # 58 pages with a body; the 13 section index pages hold only front matter and are reported, not lost.
    stubs = {s.path for s in first.report.skipped}
    assert len(first.documents) == 58 and len(stubs) == 13
    assert all(p.endswith("index.md") for p in stubs)
    assert {s.reason for s in first.report.skipped} == {"no content besides front matter"}
    assert sorted(first.report.loaded + sorted(stubs)) == files
    assert not first.report.repaired and not first.report.duplicates and first.report.ignored == 0
    assert first.report.loaded == sorted(first.report.loaded)
    for doc in first.documents:
        source = doc.metadata["source"]
        assert doc.metadata["size"] == (PROMETHEUS / source).stat().st_size
        assert doc.metadata["format"] == "markdown"
        assert doc.metadata["title"] == doc.metadata["front_matter"]["title"]
        assert not doc.page_content.startswith("---") and "sort_rank:" not in doc.page_content[:200]
    data_model = next(d for d in first.documents if d.metadata["source"] == "concepts/data_model.md")
    assert data_model.metadata["front_matter"] == {"title": "Data model", "sort_rank": "1"}
    assert data_model.page_content.startswith("Prometheus fundamentally stores all data")
    spec = next(d for d in first.documents if d.metadata["source"] == "specs/om/open_metrics_spec.md")
    assert spec.metadata["title"] == "OpenMetrics 1.0"  # quoted YAML value; the nested author list is dropped
    assert "author" not in spec.metadata["front_matter"]
    assert [(d.metadata["source"], d.metadata["content_hash"]) for d in first.documents] == [
        (d.metadata["source"], d.metadata["content_hash"]) for d in second.documents
    ]
    assert first.report == second.report


# --- the messy corpus --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def messy_copy(tmp_path_factory) -> Path:
    """The messy corpus with its four symlinks made real (this checkout stores them as text files)."""
    root = tmp_path_factory.mktemp("messy") / "messy"
    shutil.copytree(MESSY, root, symlinks=True, copy_function=shutil.copyfile)
    for folder, _, _ in os.walk(root):
        os.chmod(folder, 0o755)  # the shared corpus is read-only and copytree copies that
    for rel in SYMLINKS:
        link = root / rel
        if not link.is_symlink():
            target = link.read_text(encoding="utf-8").strip()
            link.unlink()
            link.symlink_to(target)
    return root


@pytest.fixture(scope="module")
def messy(messy_copy) -> LoadResult:
    return load_documents(messy_copy)


EXPECTED_MESSY = {
    "empty.md": ("skipped", "empty file"),
    "whitespace_only.md": ("skipped", "no content after stripping whitespace"),
    "binary_renamed.md": ("skipped", "binary file (gzip"),
    "frontmatter_only.md": ("skipped", "no content besides front matter"),
    "good/alerting/index.md": ("skipped", "no content besides front matter"),
    "invalid_utf8.md": ("repaired", "13 invalid UTF-8 bytes replaced"),
    "latin1_encoded.md": ("repaired", "decoded as cp1252"),
    "bom_crlf.md": ("repaired", "stripped BOM; normalised CRLF line endings"),
    "nul_bytes_in_text.md": ("repaired", "removed 3 control characters"),
    "huge_single_line.md": ("repaired", "no line breaks"),
    "utf16le_bom.md": ("duplicate", "decoded UTF-16 (BOM"),
    "duplicates/data_model_copy.md": ("duplicate", "exact duplicate"),
    "duplicates/nested/deeper/data_model.md": ("duplicate", "exact duplicate"),
    "duplicates/data_model_near_duplicate.md": ("duplicate", "near duplicate (whitespace only)"),
    "good/concepts/data_model.md": ("duplicate", "exact duplicate"),
    "good/introduction/glossary.md": ("duplicate", "exact duplicate"),
    "symlinks/loop_to_parent": ("skipped", "symlink loop"),
    "symlinks/self_loop.md": ("skipped", "symlink loop"),
    "symlinks/dangling.md": ("skipped", "dangling symlink"),
    "symlinks/link_to_good_file.md": ("duplicate", "symlink to good/concepts/metric_types.md"),
}


def test_messy_corpus_reports_every_bad_file_once(messy):
    found = kinds(messy)
    assert set(found) == set(EXPECTED_MESSY)
    for path, (kind, words) in EXPECTED_MESSY.items():
        assert found[path][0] == kind, (path, found[path])
        assert words in found[path][1], (path, found[path])
    duplicates = {d.path: d.duplicate_of for d in messy.report.duplicates}
    assert duplicates["duplicates/data_model_near_duplicate.md"] == "duplicates/Data Model (copy 2).md"
    assert duplicates["utf16le_bom.md"] == "good/concepts/jobs_instances.md"
    assert duplicates["symlinks/link_to_good_file.md"] == "good/concepts/metric_types.md"
    assert messy.report.ignored == 2  # LICENSE, NOTICE
    assert messy.report.summary() == "21 loaded, 5 repaired, 8 skipped, 7 duplicates"
    lines = messy.report.lines()
    assert len(lines) == len(EXPECTED_MESSY) and "skipped empty.md: empty file" in lines
    assert all(any(path in line for line in lines) for path in EXPECTED_MESSY)


def test_messy_corpus_keeps_all_good_content(messy, messy_copy):
    check_documents(messy)
    by_source = {d.metadata["source"]: d for d in messy.documents}
    good = sorted(p.relative_to(messy_copy).as_posix() for p in (messy_copy / "good").rglob("*.md"))
    assert len(good) == 12
    duplicates = {d.path: d.duplicate_of for d in messy.report.duplicates}
    for path in good:
        if path == "good/alerting/index.md":
            continue  # front matter only (title "Alertmanager"): nothing to load
        holder = duplicates.get(path, path)
        assert holder == GOOD_KEPT_ELSEWHERE.get(path, path)
        assert holder in by_source, path
        if path not in GOOD_KEPT_ELSEWHERE:
            assert by_source[path].metadata["size"] == (messy_copy / path).stat().st_size
    for path in ("README.md", "UPPERCASE_EXTENSION.MD", "not_markdown.txt", "code_block_only.md",
                 "deep_headings.md", "unclosed_code_fence.md", "huge_single_line.md"):  # fmt: skip
        assert path in by_source, path
    assert by_source["not_markdown.txt"].metadata["format"] == "text"
    assert by_source["code_block_only.md"].page_content.startswith("```yaml\nglobal:")
    assert by_source["deep_headings.md"].metadata["title"] == "Level 1: Prometheus monitoring"
    assert by_source["bom_crlf.md"].metadata["title"] == "Glossary"  # front matter found behind the BOM
    assert not by_source["bom_crlf.md"].page_content.startswith(("\ufeff", "---"))
    huge = by_source["huge_single_line.md"]
    assert len(huge.page_content) > 2_000_000 and "\n" not in huge.page_content
    assert huge.metadata["size"] == 2_097_152
    nul = by_source["nul_bytes_in_text.md"].page_content
    assert "has a NUL byte in the middle" in nul and not re.search("[\x00\x0b\x0c]", nul)
    assert "Métriques et étiquettes" in by_source["latin1_encoded.md"].page_content
    assert by_source["good/concepts/jobs_instances.md"].metadata["title"] == "Jobs and instances"


def test_invalid_utf8_keeps_the_valid_text(messy):
    text = next(d.page_content for d in messy.documents if d.metadata["source"] == "invalid_utf8.md")
    original = (PROMETHEUS / "practices" / "alerting.md").read_text(encoding="utf-8").split("---", 2)[2]
    lines = [line for line in original.splitlines() if line.strip()]
    survived = [line for line in lines if line in text]
    assert "\ufffd" in text and len(survived) >= len(lines) - 6


def test_messy_folder_as_checked_out_loads(messy):
    result = load_documents(MESSY)
    check_documents(result)
    # Files other than the four symlink placeholders get the same outcome as in the real-symlink copy.
    same = {p: k for p, k in kinds(result).items() if not p.startswith("symlinks/")}
    assert same == {p: k for p, k in kinds(messy).items() if not p.startswith("symlinks/")}


def test_one_warning_per_problem_file(messy_copy, caplog):
    with caplog.at_level(logging.WARNING, logger="groundset.documents.loader"):
        result = load_documents(messy_copy)
    messages = [r.getMessage() for r in caplog.records if r.name == "groundset.documents.loader"]
    assert sorted(messages) == sorted(result.report.lines())


# --- symlinks (real ones, in tmp_path) --------------------------------------------------------------


def test_symlinks_loops_dangling_inside_and_outside(tmp_path):
    root = tmp_path / "docs"
    write(root, "a.md", "# A\n\nAlpha text.\n")
    write(root, "sub/b.md", "# B\n\nBeta text.\n")
    outside = write(tmp_path, "outside/secret.md", "# Secret\n\nNot part of the docs.\n")
    (root / "sub" / "loop").symlink_to("..")  # directory loop back to the root
    (root / "sub" / "self.md").symlink_to("self.md")
    (root / "dangling.md").symlink_to("missing.md")
    (root / "z_alias.md").symlink_to("sub/b.md")
    (root / "a_alias.md").symlink_to("a.md")  # sorts before its target, yet the real file is kept
    (root / "escape.md").symlink_to(outside)
    (root / "escape_dir").symlink_to(outside.parent, target_is_directory=True)
    (root / "sibling").symlink_to("sub", target_is_directory=True)
    result = load_documents(root)
    check_documents(result)
    assert result.report.loaded == ["a.md", "sub/b.md"]
    found = kinds(result)
    assert found["sub/loop"] == ("skipped", "symlink loop (points to its ancestor folder '.')")
    assert found["sub/self.md"][0] == "skipped" and "symlink loop" in found["sub/self.md"][1]
    assert found["dangling.md"][0] == "skipped" and "dangling symlink" in found["dangling.md"][1]
    assert found["escape.md"] == ("skipped", "symlink points outside the docs root")
    assert found["escape_dir"] == ("skipped", "symlink points outside the docs root")
    assert found["sibling"][0] == "skipped" and "not followed" in found["sibling"][1]
    assert found["z_alias.md"][0] == "duplicate" and "(of sub/b.md)" in found["z_alias.md"][1]
    assert found["a_alias.md"][0] == "duplicate" and "(of a.md)" in found["a_alias.md"][1]
    assert "Secret" not in " ".join(d.page_content for d in result.documents)


def test_link_to_a_file_that_is_not_walked_directly_is_loaded(tmp_path):
    root = tmp_path / "docs"
    write(root, "raw/page.data", "# Page\n\nBody.\n")  # unsupported name: only reachable through the link
    (root / "page.md").symlink_to("raw/page.data")
    result = load_documents(root)
    assert result.report.loaded == ["page.md"] and result.report.ignored == 1


def test_root_given_through_a_symlink(tmp_path):
    write(tmp_path / "real", "a.md", "# A\n\nText.\n")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    result = load_documents(tmp_path / "link")
    assert result.report.loaded == ["a.md"] and result.root == (tmp_path / "real").resolve()


# --- include / exclude, single files, errors -----------------------------------------------------------


@pytest.fixture
def tree(tmp_path) -> Path:
    for rel in ("top.md", "docs/a.md", "docs/sub/b.md", "docs/drafts/c.md", "notes.txt", "docs/LICENSE"):
        write(tmp_path, rel, f"# {rel}\n\nText of {rel}.\n")
    return tmp_path


@pytest.mark.parametrize(
    ("include", "exclude", "loaded"),
    [
        (None, None, ["docs/a.md", "docs/drafts/c.md", "docs/sub/b.md", "notes.txt", "top.md"]),
        (["docs/**/*.md"], None, ["docs/a.md", "docs/drafts/c.md", "docs/sub/b.md"]),
        (["docs/**/*.md"], ["**/drafts/**"], ["docs/a.md", "docs/sub/b.md"]),
        (["*.md"], None, ["docs/a.md", "docs/drafts/c.md", "docs/sub/b.md", "top.md"]),
        (["docs/*.md"], None, ["docs/a.md"]),
        (None, ["*.txt", "docs/sub/"], ["docs/a.md", "docs/drafts/c.md", "top.md"]),
        (["*.md"], ["*.md"], []),  # exclude wins
        (["docs/LICENSE"], None, []),  # unsupported files are never candidates
    ],
)
def test_include_exclude_globs(tree, include, exclude, loaded):
    result = load_documents(tree, include=include, exclude=exclude)
    assert result.report.loaded == loaded
    assert result.report.ignored == 6 - len(loaded)
    assert not result.report.skipped


def test_single_file_and_errors(tree):
    result = load_documents(str(tree / "docs" / "a.md"))
    assert result.report.loaded == ["a.md"] and result.root == (tree / "docs").resolve()
    assert result.documents[0].metadata["title"] == "docs/a.md"
    with pytest.raises(ConfigError, match="docs folder not found: .*nope"):
        load_documents(tree / "nope")
    with pytest.raises(ConfigError, match="not a supported document type"):
        load_documents(tree / "docs" / "LICENSE")
    with pytest.raises(ConfigError, match="int"):
        load_documents(42)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="str at index 0"):
        load_documents(["a.md"])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="list of glob patterns"):
        load_documents(tree, include="*.md")  # type: ignore[arg-type]


def test_folder_with_nothing_loadable_is_an_empty_result(tmp_path):
    write(tmp_path, "image.png", b"\x89PNG\r\n\x1a\n")
    write(tmp_path, "empty.md", b"")
    result = load_documents(tmp_path)
    assert result.documents == [] and result.report.ignored == 1
    assert result.report.summary() == "0 loaded, 0 repaired, 1 skipped, 0 duplicates"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file_by_permissions(tmp_path):
    path = write(tmp_path, "locked.md", "# Locked\n\nText.\n")
    path.chmod(0)
    try:
        found = kinds(load_documents(tmp_path))
    finally:
        path.chmod(0o644)
    assert found["locked.md"][0] == "skipped" and "Permission denied" in found["locked.md"][1]


def test_unreadable_file_reports_the_os_error(tmp_path, monkeypatch):
    write(tmp_path, "ok.md", "# Ok\n\nFine.\n")
    write(tmp_path, "locked.md", "# Locked\n\nText.\n")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "locked.md":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    result = load_documents(tmp_path)
    assert result.report.loaded == ["ok.md"]
    assert kinds(result)["locked.md"] == ("skipped", "cannot read file (Permission denied)")


# --- encodings, binaries, front matter, titles ---------------------------------------------------------


def test_encodings_and_binaries(tmp_path):
    body = "# Überschrift\n\nGrüße aus Köln – “quoted”.\n"
    write(tmp_path, "be.md", b"\xfe\xff" + body.encode("utf-16-be"))
    write(tmp_path, "png.md", b"\x89PNG\r\n\x1a\n" + bytes(200))
    write(tmp_path, "pdf.md", b"%PDF-1.7\n" + b"text " * 100)
    write(tmp_path, "zip.md", b"PK\x03\x04" + b"x" * 50)
    write(tmp_path, "gz.md", gzip.compress(b"# hidden\n\ncompressed text\n" * 20))
    write(tmp_path, "noise.md", bytes(range(256)) * 8)
    write(tmp_path, "nul_and_bad.md", (b"some words here\x00 and \xff more words" * 10))
    write(tmp_path, "mostly_bad.md", b"a" + b"\xff\xfe\xfd\xfc" * 50)
    write(tmp_path, "cr.md", b"# Old Mac\r\rline one\rline two\r")
    write(
        tmp_path, "bom_fm.md", b"\xef\xbb\xbf---\r\ntitle: From FM\r\n---\r\n\r\n# Heading\r\n\r\nBody.\r\n"
    )
    write(tmp_path, "bad_fm.md", "---\ntitle: [unclosed\n---\n\nBody after broken front matter.\n")
    write(tmp_path, "rule.md", "---\nJust a thematic break\n---\n\nBody.\n")
    write(tmp_path, "guide.rst", "=======\nRST Doc\n=======\n\nSection\n-------\n\nText.\n")
    write(tmp_path, "plain_name-here.txt", "no heading at all\n")
    write(tmp_path, "nbsp.md", "\u00a0 \t\r\n\u200b\n")
    result = load_documents(tmp_path)
    check_documents(result)
    found = kinds(result)
    by_source = {d.metadata["source"]: d for d in result.documents}
    assert by_source["be.md"].page_content == body.rstrip()
    assert found["be.md"] == ("repaired", "decoded UTF-16 (BOM, big-endian)")
    for name, magic in (("png.md", "PNG"), ("pdf.md", "PDF"), ("zip.md", "zip"), ("gz.md", "gzip")):
        assert found[name] == ("skipped", f"binary file ({magic} magic bytes)")
    assert found["noise.md"][0] == "skipped" and "control bytes" in found["noise.md"][1]
    assert found["nul_and_bad.md"] == ("skipped", "binary file (NUL bytes and invalid UTF-8)")
    assert found["mostly_bad.md"][0] == "skipped" and "undecodable bytes" in found["mostly_bad.md"][1]
    assert by_source["cr.md"].page_content == "# Old Mac\n\nline one\nline two"
    assert found["cr.md"] == ("repaired", "normalised CR line endings")
    fm = by_source["bom_fm.md"]
    assert fm.metadata["title"] == "From FM" and fm.page_content == "# Heading\n\nBody."
    assert found["bom_fm.md"] == ("repaired", "stripped BOM; normalised CRLF line endings")
    assert by_source["bad_fm.md"].page_content == "Body after broken front matter."
    assert found["bad_fm.md"][0] == "repaired" and "malformed front matter" in found["bad_fm.md"][1]
    assert by_source["bad_fm.md"].metadata["front_matter"] == {}
    assert by_source["rule.md"].page_content.startswith("---\nJust a thematic break")
    assert by_source["rule.md"].metadata["title"] == "Just a thematic break"  # a Setext heading
    assert "front_matter" not in by_source["rule.md"].metadata
    assert by_source["guide.rst"].metadata["title"] == "RST Doc"
    assert by_source["guide.rst"].metadata["format"] == "rst"
    assert by_source["plain_name-here.txt"].metadata["title"] == "plain name here"
    assert found["nbsp.md"] == ("skipped", "no content after stripping whitespace")


def test_pathological_inputs_stay_linear(tmp_path, monkeypatch):
    """Behaviour, not seconds: every file loads, and the Markdown parser (the one super-linear part on
    markup-dense text) only ever sees a bounded head of a page when the loader looks for its title."""
    from groundset.documents import titles

    seen: list[int] = []
    real = titles.markdown_headings
    monkeypatch.setattr(
        titles, "markdown_headings", lambda text, **kw: seen.append(len(text)) or real(text, **kw)
    )
    size = 1_500_000
    write(tmp_path, "heading_line.md", "# " + "word " * (size // 5) + "#")
    write(tmp_path, "open_front_matter.md", "---\n" + "key: value\n" * (size // 11))
    write(tmp_path, "dashes.md", "text\n" + "-" * size)
    write(tmp_path, "adornments.rst", "=" * size + "\nx")
    write(tmp_path, "brackets.md", "[" * size + "](" * 1000)
    write(tmp_path, "breaks.md", "- " * (size // 2) + "x\n---")
    result = load_documents(tmp_path)
    check_documents(result)
    assert len(result.documents) == 6
    assert seen and max(seen) <= titles._TITLE_WINDOW
    assert all(len(d.metadata["title"]) <= 200 for d in result.documents)


# --- LangChain Documents input --------------------------------------------------------------------------


def test_documents_input():
    docs = [
        Document(page_content="# Hello\n\nWorld", metadata={"source": "a.md", "lang": "en"}),
        Document(page_content=""),
        Document(page_content=" \n\t\u00a0"),
        Document(page_content="\ufeff# Hello\r\n\r\nWorld  \r\n", metadata={"source": "copy.md"}),
        Document(page_content="# Hello\n\n   World", metadata={"source": "near.md"}),
        Document(page_content="Plain words", metadata={"format": "markdown", "title": "Given"}),
        Document(page_content="Ünïcode ✓", metadata={"source": ""}),
    ]
    result = load_documents(iter(docs))
    assert result.root is None
    check_documents(result)
    assert result.report.loaded == ["a.md", "document-5", "document-6"]
    a, given, uni = result.documents
    assert a.metadata == {
        "source": "a.md",
        "lang": "en",
        "title": "Hello",
        "content_hash": stable_hash("# Hello\n\nWorld"),
        "size": 14,
        "format": "text",
        "language": "en",  # detected ("Hello World": too short to tell, so the default)
    }
    assert given.metadata["title"] == "Given" and given.metadata["format"] == "markdown"
    assert uni.metadata["size"] == len("Ünïcode ✓".encode()) and uni.metadata["title"] == "document 6"
    found = kinds(result)
    assert found["document-1"] == ("skipped", "empty file")
    assert found["document-2"] == ("skipped", "no content after stripping whitespace")
    assert found["copy.md"][0] == "duplicate" and found["copy.md"][1].startswith("exact duplicate")
    assert "stripped BOM" in found["copy.md"][1] and found["copy.md"][1].endswith("(of a.md)")
    assert found["near.md"] == ("duplicate", "near duplicate (whitespace only) (of a.md)")
    assert (
        load_documents([], include=["*.md"]).report.summary()
        == "0 loaded, 0 repaired, 0 skipped, 0 duplicates"
    )
    assert load_documents(docs, include=["*.md"]).report.loaded == ["a.md"]


# --- HTML -------------------------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html><head><title>Alerting &amp; Rules</title>
<style>h1 { color: red }</style><script>document.write("<h1>fake</h1>")</script></head>
<body><nav><a href="/">Home</a> · <a href="/docs">Docs</a></nav>
<h1>Alerting   rules</h1>
<p>Rules fire when a PromQL expression &gt; 0 &mdash; see &lt;alert&gt; &#169; docs.</p>
<ul><li>first item</li><li>second <b>item</b></li></ul>
<h2 id="x">Configuration</h2>
<pre><code>groups:
  - name: example
</code></pre>
<script>var hidden = 1;</script>
<p>Last paragraph.</p>
</body></html>
"""


def test_html_extraction(tmp_path):
    write(tmp_path, "alerting.html", PAGE)
    write(tmp_path, "UPPER.HTM", "<h1>Only heading</h1><p>Some text.</p>")
    write(tmp_path, "scripts_only.html", "<html><head><script>x()</script></head><body></body></html>")
    result = load_documents(tmp_path)
    check_documents(result)
    by_source = {d.metadata["source"]: d for d in result.documents}
    page = by_source["alerting.html"]
    assert page.metadata["format"] == "html" and page.metadata["title"] == "Alerting & Rules"
    assert page.metadata["size"] == len(PAGE.encode())
    assert page.page_content == (
        "# Alerting rules\n\n"
        "Rules fire when a PromQL expression > 0 — see <alert> © docs.\n\n"
        "- first item\n- second item\n\n"
        "## Configuration\n\n"
        "```\ngroups:\n  - name: example\n```\n\n"
        "Last paragraph."
    )
    assert by_source["UPPER.HTM"].metadata["title"] == "Only heading"
    assert kinds(result)["scripts_only.html"] == ("skipped", "no text content in HTML")


# Review issue 4: a page and the same HTML inside Markdown drop one list of elements (groundset.text.html).


@pytest.mark.parametrize("element", sorted(HIDDEN_ELEMENTS))
def test_both_html_readers_drop_the_same_elements(element):
    html = f"<div>\n<p>kept_before</p>\n<{element}>hidden_text</{element}>\n<p>kept_after</p>\n</div>"
    assert plain_text(html) == "kept_before kept_after"
    assert html_to_text(html)[0] == "kept_before\n\nkept_after"


def test_both_html_readers_agree_on_self_closing_tags_and_a_head_without_its_end_tag():
    icons = '<div>\n<svg class="icon"/> Install <object data="x.swf"/> now\n</div>'
    assert plain_text(icons) == "Install now" and html_to_text(icons)[0] == "Install now"
    page = "<div>\n<head><title>Page title</title>\n<body><p>Body text.</p></body>\n</div>"
    assert plain_text(page) == "Body text." and html_to_text(page)[0] == "Body text."


# mdBook's page (the Rust book), as it is built: a keyboard-help popup outside <nav> on every page.
MDBOOK_PAGE = """<!DOCTYPE html>
<html><head><title>What is Ownership? - The Rust Programming Language</title></head>
<body>
<div id="mdbook-help-container"><div id="mdbook-help-popup">
<h2 class="mdbook-help-title">Keyboard shortcuts</h2>
<div><p>Press <kbd>S</kbd> or <kbd>/</kbd> to search in the book</p>
<p>Press <kbd>Esc</kbd> to hide this help</p></div></div></div>
<div id="menu-bar"><h1 class="menu-title">The Rust Programming Language</h1></div>
<div id="content" class="content"><main>
<h2 id="what-is-ownership">What Is Ownership?</h2>
<p><em>Ownership</em> is a set of rules that govern how a Rust program manages memory.</p>
<div><main-note>Note.</main-note><img src="x.svg" alt="Figure 4-1"></div>
</main><nav class="nav-wrapper"><a rel="next" href="ch04-02.html">Next</a></nav></div>
</body></html>
"""


def test_a_page_that_marks_its_main_content_gives_that_content_only():
    """ "Press Esc to hide this help" on every page of the Rust book made "Esc" the corpus's product name:
    a page with a <main> element (or role="main", as Sphinx themes write it) gives what it holds; a page
    without one, or whose main element holds no text, gives the whole body."""
    text, title = html_to_text(MDBOOK_PAGE)
    assert title == "What is Ownership? - The Rust Programming Language"
    assert text == (
        "## What Is Ownership?\n\n"
        "Ownership is a set of rules that govern how a Rust program manages memory.\n\nNote. Figure 4-1"
    )
    sphinx = (
        '<body><div class="sphinxsidebar">Quick search</div>'
        '<div class="body" role="main"><h1>Caching</h1><div><p>pip caches wheels.</p></div></div>'
        "<div class=footer>Copyright</div></body>"
    )
    assert html_to_text(sphinx)[0] == "# Caching\n\npip caches wheels."
    assert html_to_text("<body><p>Sidebar.</p><main> </main><p>Body.</p></body>")[0] == "Sidebar.\n\nBody."


def test_inline_code_in_html_stays_code():
    """The Rust book's "the <code>?</code> operator" read "the ? operator", and "If <code>value</code> ..."
    lost what a Markdown page marks as code (what makes it a name, or an example's variable)."""
    page = (
        "<p>Use the <code>?</code> operator, not <code>unwrap</code>.</p><pre><code>let x = 1;</code></pre>"
    )
    assert html_to_text(page)[0] == "Use the `?` operator, not `unwrap`.\n\n```\nlet x = 1;\n```"
