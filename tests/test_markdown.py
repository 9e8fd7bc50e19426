"""Markdown structure and prose from markdown-it-py's token stream (groundset.text.markdown, plaintext).

Heading attributes ({#anchor}, {.class}) must never reach a heading, a chunk's section, a document
title or a generated question: checked on hand-written cases and on a Chinese fixture end to end here,
on the shared corpora in test_markdown_corpora.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from groundset.core import CallEngine
from groundset.documents.titles import markdown_title, rst_title
from groundset.kg import NodeKind, build_knowledge_graph
from groundset.kg.splitters import HeadlineSplitter
from groundset.synthesizers import TestsetGenerator
from groundset.text import mdparse
from groundset.text.markdown import (
    Heading,
    code_blocks,
    list_items,
    markdown_headings,
    rst_headings,
    sections,
    structural_headings,
    tables,
)
from groundset.text.mdparse import memo, read_once
from groundset.text.plaintext import plain_text

ZH_DOCS = Path(__file__).parent / "data" / "zh_docs"
ATTRIBUTE_MARKS = ("{#", "{.", "{:")


def _titles(text: str) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in markdown_headings(text)]


def _clean(value: str) -> bool:
    return not any(mark in value for mark in ATTRIBUTE_MARKS)


# ----------------------------------------------------------------------------------------------------------
# headings


def test_atx_and_setext_headings_outside_code_quotes_and_lists() -> None:
    text = "\n".join(
        [
            "# Title #",
            "",
            "Setext *one*",
            "===",
            "",
            "A paragraph",
            "over two lines",
            "---",
            "",
            "```markdown",
            "# not a heading",
            "```",
            "",
            "~~~",
            "## nor this",
            "~~~",
            "",
            "    # indented code",
            "",
            "> # quoted",
            "",
            "- # in a list",
            "",
            "### `code` and [a link](https://example.com) ###",
            "#hashtag is text",
        ]
    )
    assert _titles(text) == [
        (1, "Title"),
        (1, "Setext one"),
        (2, "A paragraph over two lines"),
        (3, "code and a link"),
    ]
    assert [h.line for h in markdown_headings(text)] == [0, 2, 5, 23]


@pytest.mark.parametrize(
    ("line", "title", "anchor"),
    [
        ("## Distributing a theme {#distributing-a-theme}", "Distributing a theme", "distributing-a-theme"),
        ("## 分发自定义主题 {#distributing-a-custom-theme}", "分发自定义主题", "distributing-a-custom-theme"),
        ("## 版本号{#versioning}", "版本号", "versioning"),
        ("## Options {.important}", "Options", None),
        ("## 配置选项 {.important}", "配置选项", None),
        ("## Both {#both .cls key=val} ##", "Both", "both"),
        ("## 两者 {#both .cls data-x=\"a b\"}", "两者", "both"),
        ("## Kramdown {: #kramdown}", "Kramdown", "kramdown"),
        ("## Closed ## {#closed}", "Closed", "closed"),
        ("## Unnumbered {-}", "Unnumbered", None),
        ('## Query up{job="api"}', 'Query up{job="api"}', None),  # a PromQL matcher is text
        ("## Escaped \\{#not-attributes}", "Escaped {#not-attributes}", None),
        ("## Empty braces {}", "Empty braces {}", None),
    ],
)  # fmt: skip
def test_heading_attributes_never_reach_the_title(line: str, title: str, anchor: str | None) -> None:
    setext = [f"{line[3:]}\n---"] if line.endswith("}") else []  # a Setext heading has no closing #s
    for text in [line, *setext]:
        [heading] = markdown_headings(text)
        assert (heading.title, heading.anchor) == (title, anchor)
    assert plain_text(line) == title
    assert markdown_title(f"Intro.\n\n{line}\n\nBody.") == title


def test_structural_headings_by_format() -> None:
    assert _titles("# A {#a}") == [(1, "A")]
    assert [h.title for h in structural_headings("# A {#a}", "html")] == ["A"]
    assert structural_headings("# A", "text") == []
    assert [h.title for h in structural_headings("Title\n=====\n", "rst")] == ["Title"]


def test_sections_give_heading_paths_and_line_ranges() -> None:
    text = "Intro line.\n\n# Guide {#guide}\nBody.\n## Install\nSteps.\n### Linux\nMore.\n## Use\nEnd."
    assert [(s.path, s.level, s.start, s.end) for s in sections(text)] == [
        ((), 0, 0, 2),
        (("Guide",), 1, 2, 4),
        (("Guide", "Install"), 2, 4, 6),
        (("Guide", "Install", "Linux"), 3, 6, 8),
        (("Guide", "Use"), 2, 8, 10),
    ]
    assert [s.path for s in sections("No headings here.")] == [()]


def test_markdown_title_is_the_first_clean_heading() -> None:
    assert (
        markdown_title("```\n# code\n```\n\nText.\n\n## **First** [one](x.md) {#first}\n# Second")
        == "First one"
    )
    long = markdown_title("# " + "word " * 100)
    assert long is not None and len(long) == 200 and long.endswith("…")
    assert markdown_title("No heading at all.\n\n    # indented code") is None


def test_markdown_title_reads_only_the_start_of_a_huge_page() -> None:
    body = "key: value\n" * 200_000  # 2.2 MB of lines: a title must not cost a parse of all of them
    assert markdown_title("# Early {#early}\n" + body) == "Early"
    assert markdown_title(body + "# Late\n") is None  # the loader then titles the page by its file name
    assert markdown_title("text\n" + "-" * 1_000_000) == "text"  # a Setext underline longer than the window


def test_a_title_is_the_first_heading_the_splitter_cuts_at() -> None:
    """Review issue 1: rst titles come from ``rst_headings`` (a 2-character underline is no heading there),
    and headings and titles are cleaned and cut alike (an ellipsis marks a cut)."""
    text = "No\n--\n\nGuide `v2` with **[links](x.rst)**\n======================================\n\nBody."
    assert [h.title for h in rst_headings(text)] == ["Guide v2 with links"]
    assert rst_title(text) == "Guide v2 with links"
    assert rst_title("Just prose.\n\nMore prose.") is None
    long = "word " * 100
    for title in (rst_title(f"{long}\n{'=' * 500}\n"), markdown_headings(f"# {long}")[0].title):
        assert len(title) == 200 and title.endswith("…")


def test_sections_cut_at_given_headings() -> None:
    text = "Overview\nbody\nDetails\nmore"
    cut = sections(text, "text", headings=[Heading(1, "Overview", 0), Heading(1, "Details", 2)])
    assert [(s.path, s.start, s.end) for s in cut] == [(("Overview",), 0, 2), (("Details",), 2, 4)]


def test_headline_splitter_sections_carry_no_attributes() -> None:
    body = " ".join(["word"] * 40)
    text = f"# Guide {{#guide}}\n{body}\n## 安装{{#install .x}}\n{body}\n## Use {{.note}}\n{body}"
    pieces = HeadlineSplitter(chunk_size=400, chunk_overlap=0).split({"text": text, "format": "markdown"})
    assert [p for p, _ in pieces] == ["Guide", "Guide > 安装", "Guide > Use"]
    no_structure = HeadlineSplitter(chunk_size=400, chunk_overlap=0).split(
        {
            "text": f"Overview\n{body}\nDetails {{#details}}\n{body}",
            "format": "text",
            "headlines": ["Details"],
        }
    )
    assert [p for p, _ in no_structure] == ["", "Details"]


# ----------------------------------------------------------------------------------------------------------
# blocks: front matter, tables, definition lists, containers, footnotes, HTML, code, lists


def test_front_matter_is_skipped_but_its_title_kept() -> None:
    yaml = '---\ntitle: "Data model"\nsort_rank: 1\n---\n\n# Storage {#storage}\n\nText.'
    assert plain_text(yaml).split("\n\n") == ["Data model", "Storage", "Text."]
    assert _titles(yaml) == [(1, "Storage")] and markdown_headings(yaml)[0].line == 5
    toml = '+++\ntitle = "Hugo page"\ndraft = true\n+++\n\nBody.'
    assert plain_text(toml).split("\n\n") == ["Hugo page", "Body."]
    assert plain_text("---\nsort_rank: 1\n---\n\nOnly body.") == "Only body."
    not_metadata = "---\nJust a thematic break\n---\n\nBody."  # a rule, then a Setext heading
    assert _titles(not_metadata) == [(2, "Just a thematic break")]
    assert plain_text(not_metadata) == "Just a thematic break\n\nBody."


def test_tables_become_rows_of_cells() -> None:
    text = (
        "| Flag | Meaning |\n|------|:-------:|\n| `--storage.tsdb.path` | where *data* lives |\n| `-x` | |\n"
    )
    [table] = tables(text)
    assert table.rows == (("Flag", "Meaning"), ("--storage.tsdb.path", "where data lives"), ("-x", ""))
    assert table.line == 0
    assert plain_text(text) == "Flag; Meaning\n\n--storage.tsdb.path; where data lives\n\n-x"


def test_definition_lists_keep_terms_and_definitions() -> None:
    text = "Scrape\n: Fetching metrics from a target.\n\nTarget\n: An endpoint Prometheus scrapes."
    assert plain_text(text).split("\n\n") == [
        "Scrape",
        "Fetching metrics from a target.",
        "Target",
        "An endpoint Prometheus scrapes.",
    ]


def test_containers_and_admonitions_keep_their_text() -> None:
    text = (
        "::: tip\nKeep the config small.\n:::\n\n"
        "::: warning 小心\n不要直接修改主题文件。\n:::\n\n"
        '!!! note "Read this"\n    Admonition body.\n\n'
        "!!! danger\n    No default title.\n"
    )
    assert plain_text(text).split("\n\n") == [
        "Keep the config small.",
        "小心",
        "不要直接修改主题文件。",
        "Read this",
        "Admonition body.",
        "No default title.",
    ]
    assert ":::" not in plain_text(text) and "!!!" not in plain_text(text)


def test_footnote_references_dropped_and_their_text_kept() -> None:
    text = "Prometheus stores samples[^tsdb] locally.\n\n[^tsdb]: In its own time series database.\n"
    assert plain_text(text).split("\n\n") == [
        "Prometheus stores samples locally.",
        "In its own time series database.",
    ]
    assert plain_text("Regex ^[a-z]+ stays.") == "Regex ^[a-z]+ stays."  # no inline ^[...] footnotes


def test_html_is_dropped_but_prose_in_it_kept() -> None:
    text = (
        "Before.\n\n<!-- hidden_comment -->\n\n"
        '<div class="note">\n<p>Inside &amp; kept.</p>\n<script>var hidden_script = 1;</script>\n</div>\n\n'
        "Inline <span>tag</span> text, <br> a <!-- c --> comment and http://<host>:<port>/metrics.\n\n"
        "<!-- an unclosed comment hides the rest\n\nhidden_tail"
    )
    assert plain_text(text).split("\n\n") == [
        "Before.",
        "Inside & kept.",
        "Inline tag text, a comment and http://<host>:<port>/metrics.",
    ]


def test_code_is_left_out_of_prose_and_kept_for_the_code_helper() -> None:
    text = "Intro.\n\n```yaml title=a.yml\nscrape_configs: []\n```\n\n    indented_code()\n\nEnd `inline`."
    assert plain_text(text) == "Intro.\n\nEnd inline."
    assert plain_text(text, code_spans=True) == "Intro.\n\nEnd `inline`."
    blocks = code_blocks(text)
    assert [(b.code, b.info, b.language, b.line) for b in blocks] == [
        ("scrape_configs: []\n", "yaml title=a.yml", "yaml", 2),
        ("indented_code()\n", "", "", 6),
    ]


def test_list_items_with_depth_order_and_tasks() -> None:
    text = "- [ ] first *task*\n  continued\n  1. nested\n- [x] done\n\n3. ordered"
    items = [(i.text, i.depth, i.ordered, i.line) for i in list_items(text)]
    assert items == [
        ("first task continued", 1, False, 0),
        ("nested", 2, True, 2),
        ("done", 1, False, 3),
        ("ordered", 1, True, 5),
    ]
    assert plain_text(text).split("\n\n") == ["first task continued", "nested", "done", "ordered"]


def test_shortcodes_and_template_references() -> None:
    text = '{{< figure src="arch.png" >}}\n\nUse {{ version }} with `{{method}}` here. {{% notice %}}'
    assert plain_text(text) == "Use version with {{method}} here."


def test_plain_text_is_stable_on_its_own_output() -> None:
    text = (ZH_DOCS / "plugins.md").read_text(encoding="utf-8")
    once = plain_text(text)
    assert plain_text(once) == once and _clean(once)


# ----------------------------------------------------------------------------------------------------------
# bounded work on pathological input


def _record_inline_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Lengths of the texts markdown-it's inline parser is given (its cost grows with their markup)."""
    seen: list[int] = []
    real = mdparse._MD.inline.parse

    def parse(src, md, env, out):  # noqa: ANN001, ANN202
        seen.append(len(src))
        return real(src, md, env, out)

    monkeypatch.setattr(mdparse._MD.inline, "parse", parse)
    return seen


def test_a_two_megabyte_line_of_prose_is_parsed_in_bounded_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    sentence = "Prometheus scrapes *node_exporter* at `0.5 s` via [the config](prometheus.yml). "
    line = sentence * (2_000_000 // len(sentence))
    seen = _record_inline_parses(monkeypatch)
    text = plain_text(line)
    assert "\n" not in text and text.startswith("Prometheus scrapes node_exporter at 0.5 s via the config.")
    assert text.count("Prometheus scrapes node_exporter") == line.count("Prometheus scrapes")
    assert seen and max(seen) <= mdparse._SLICE and sum(seen) >= len(line) - 10


@pytest.mark.parametrize("unit", ["*_`[", "[a](", "<a ", "# ["])
def test_dense_markup_is_read_as_text_once_its_budget_is_spent(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    line = unit * (2_000_000 // len(unit))
    seen = _record_inline_parses(monkeypatch)
    text = plain_text(line)
    assert text and "\n" not in text
    assert sum(seen) <= 200_000  # the full inline parser saw a bounded share, the rest went by as text


# ----------------------------------------------------------------------------------------------------------
# the Chinese fixture and the shared corpora, end to end


def test_chinese_fixture_headings_and_titles_are_clean() -> None:
    for path in sorted(ZH_DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        headings = markdown_headings(text)
        assert headings and all(_clean(h.title) and h.title == h.title.strip() for h in headings), path.name
        assert all(h.anchor for h in headings if h.level < 3), path.name
        assert _clean(markdown_title(text) or "") and _clean(plain_text(text))
        pieces = HeadlineSplitter(chunk_size=64, chunk_overlap=0, min_section_tokens=1).split(
            {"text": text, "format": "markdown"}
        )
        assert len(pieces) > 2 and all(_clean(section) for section, _ in pieces), path.name
    themes = (ZH_DOCS / "themes.md").read_text(encoding="utf-8")
    assert "分发自定义主题" in [h.title for h in markdown_headings(themes)]


def attribute_leaks(folder: Path, size: int) -> tuple[list[str], set[str]]:
    """Every heading, headline, section, title and question of an offline build + test set that
    still carries attribute syntax; and the chunk sections seen."""
    kg = build_knowledge_graph(folder, engine=CallEngine(cache=False)).kg
    leaks: list[str] = []
    for node in kg.nodes(NodeKind.DOCUMENT):
        data = kg.get(node)
        fmt = data.get("format", "markdown")
        values = [data.get("title") or "", *data.get("headlines", [])]
        values += [h.title for h in structural_headings(data["text"], fmt)]
        leaks += [f"{data['source']}: {value}" for value in values if not _clean(value)]
    seen: set[str] = set()
    for node in kg.nodes(NodeKind.CHUNK):
        data = kg.get(node)
        seen.add(data.get("section") or "")
        values = [data.get("section") or "", *data.get("headlines", [])]
        leaks += [f"chunk {node}: {value}" for value in values if not _clean(value)]
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(kg, size, seed=11)
    assert len(testset) > 0, folder
    leaks += [f"question: {s.user_input}" for s in testset if not _clean(s.user_input)]
    return leaks, seen


def test_no_attribute_syntax_reaches_the_graph_or_questions_of_the_chinese_fixture() -> None:
    leaks, seen = attribute_leaks(ZH_DOCS, 6)
    assert leaks == []
    assert {
        "主题指南 > 分发自定义主题",
        "主题指南 > 分发自定义主题 > 版本号",
    } <= seen  # headline splitting ran


def test_the_plain_text_and_the_answer_passages_of_a_chunk_share_one_parse(monkeypatch):
    """The graph reads a chunk's plain text, the generator its answer passages: parsing is most of what
    either costs, so the second finds the first's tokens."""
    from groundset.synthesizers.scenarios.passages import passages
    from groundset.text.plaintext import plain_text

    parses = []
    real = mdparse._MD.parse
    monkeypatch.setattr(mdparse, "_PARSED", mdparse._Memo(max_chars=1_000_000))
    monkeypatch.setattr(mdparse._MD, "parse", lambda text, env=None: parses.append(text) or real(text, env))
    chunk = "## Retention\n\nPrometheus keeps samples for 15 days by default. See `--retention`.\n"
    assert "15 days" in plain_text(chunk)
    assert any("15 days" in p.sentence for p in passages(chunk, "Storage"))
    assert parses == [chunk]
    assert mdparse.parse(chunk) is mdparse.parse(chunk.rstrip("\n"))  # the same tokens, read-only


def test_what_a_read_once_pass_memoised_is_forgotten_after_it():
    """The build's per-text batches share a text's parse among its readers, then let it go: kept, a
    corpus's parses would push out what other readers need and hold memory at the build's peak."""
    calls: list[str] = []

    @memo(max_chars=10_000)
    def length(text: str) -> int:
        calls.append(text)
        return len(text)

    length("kept")
    with read_once():
        assert length("batch") == length("batch") == 5  # read twice inside, computed once
        length("kept")  # known before: a hit, and still known after
        with read_once():  # inside another, the outer one forgets
            length("nested")
        length("nested")
    assert calls == ["kept", "batch", "nested"]
    length("kept")
    length("batch")
    length("nested")
    assert calls == ["kept", "batch", "nested", "batch", "nested"]
