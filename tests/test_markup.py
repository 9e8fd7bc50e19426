"""strip_markup: docs-build markup (templates, HTML wrappers, MDX, admonition fences) never reaches
documents and chunks, while prose, Markdown structure and code stay exactly as written."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from langchain_core.documents import Document

from groundset.documents import load_documents
from groundset.text.markup import strip_markup
from groundset.text.plaintext import plain_text

# An mdBook chapter in the style of the big Rust-like books: listings wrapped in <Listing>, code pulled
# in by {{#rustdoc_include}}, anchors for old links, file-name captions and "ignore" comments.
CHAPTER = """\
## Keeping Values in a Ring Buffer

A *ring buffer* holds a fixed number of values and overwrites the oldest one when it is full.
We start with an empty buffer of capacity four.

<Listing number="5-1" file-name="src/main.rs" caption="Creating an empty `RingBuffer<i32>`">

```rust
{{#rustdoc_include ../listings/ch05-ring-buffer/listing-05-01/src/main.rs:here}}
```

</Listing>

<!-- manual-regeneration
cd listings/ch05-ring-buffer/listing-05-01
cargo run > output.txt
-->

The capacity is fixed when the buffer is created. <!-- ignore -->

<span class="filename">Filename: src/lib.rs</span>

```rust,ignore
pub fn push(&mut self, value: T) {
    // "<div>" in a string stays: this is code
    self.items[self.head] = value;
}
```

<a id="reading-values"></a>
### Reading Values Back

{{#include ../listings/ch05-ring-buffer/output.txt}}

Call `get(0)` to read the oldest value; `Vec<T>` would grow instead.
"""

MARKERS = re.compile(
    r"\{\{|\{%|%\}|<!--|-->|</?(?:Listing|span|div|a|details|summary|Tabs|TabItem)\b|:::|\{:"
)


def strip(text: str) -> str:
    """strip_markup, checked to be idempotent on every input of these tests."""
    out = strip_markup(text)
    assert strip_markup(out) == out, f"not idempotent on {text!r}"
    return out


# --- each kind of markup --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "directive",
    [
        "{{#rustdoc_include ../listings/ch08/listing-08-01/src/main.rs:here}}",
        "{{#include ../x.rs}}",
        "{{#playground example.rs editable}}",
        "{{#title Storing Keys}}",
    ],
)
def test_mdbook_directives_go(directive: str) -> None:
    assert strip(f"Intro.\n\n{directive}\n\nOutro.\n") == "Intro.\n\nOutro.\n"
    assert strip(f"See {directive} here.") == "See here."


def test_hugo_shortcodes_go_and_paired_ones_keep_their_text() -> None:
    text = (
        'Intro.\n\n{{< figure src="x.png" caption="A > B" >}}\n\n'
        "{{% notice note %}}\nKeep me.\n{{% /notice %}}\n"
    )
    assert strip(text) == "Intro.\n\nKeep me.\n"
    assert strip("Use {{< kbd Ctrl >}}C{{< /kbd >}} to copy.") == "Use C to copy."


def test_jinja_and_liquid_tags_go() -> None:
    text = '{% include "header.md" %}\n\nWelcome to {{ site.title }}.\n{% raw %}Raw text{% endraw %} stays.\n'
    assert strip(text) == "Welcome to.\nRaw text stays.\n"
    assert strip("{# a Jinja comment #}Text") == "Text"
    # a bare name (a kramdown-rfc reference) reads as the name; a variable path goes
    assert (
        strip("the registry at {{PrometheusPorts}}, in {{ page.url }} too\n")
        == "the registry at PrometheusPorts, in too\n"
    )


def test_html_wrappers_go_and_their_text_stays() -> None:
    text = (
        '<div class="note">\n\nA note with **bold**.\n\n</div>\n\n'
        "<details>\n<summary>Click to expand</summary>\n\nHidden text.\n\n</details>\n"
    )
    assert strip(text) == "A note with **bold**.\n\nClick to expand\n\nHidden text.\n"


def test_anchors_spans_breaks_and_images() -> None:
    assert strip('<a id="foo"></a>\n## Heading <a name="x"></a>\n') == "## Heading\n"
    assert strip('<span class="filename">Filename: src/main.rs</span>') == "Filename: src/main.rs"
    assert strip('Line one<br>line two and <img src="a.png" alt="x"> an image.') == (
        "Line one line two and an image."
    )
    assert strip("| a | b<br>c |\n|---|---|\n| <ul><li>x</li><li>y</li></ul> | z |\n") == (
        "| a | b c |\n|---|---|\n| x y | z |\n"
    )


def test_html_comments_single_and_multi_line() -> None:
    text = "Start <!-- inline --> end.\n\n<!--\nmulti\nline\n-->\n\nNext.\n<!-- ignore -->\nLast.\n"
    assert strip(text) == "Start end.\n\nNext.\n\nLast.\n"


def test_mdx_imports_exports_and_components() -> None:
    text = (
        "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
        "export const Highlight = ({children}) => <span>{children}</span>;\n\n"
        "# Install\n\n<Tabs groupId=\"os\" values={[{label: 'Linux', value: 'linux'}]}>\n"
        '<TabItem value="linux" label="Linux">\n\nRun the installer.\n\n</TabItem>\n</Tabs>\n'
    )
    assert strip(text) == "# Install\n\nRun the installer.\n"
    # Prose that only starts with the words stays.
    assert strip("import the data first.\n\nexport settings as YAML.\n") == (
        "import the data first.\n\nexport settings as YAML.\n"
    )


def test_admonition_fences_go_and_their_text_stays() -> None:
    assert strip(":::note\n\nInner note.\n\n:::\n") == "Inner note.\n"
    assert strip("Before.\n\n:::tip[Fast path]\nTip text.\n:::\n\nAfter.\n") == (
        "Before.\n\nFast path\n\nTip text.\n\nAfter.\n"
    )


def test_kramdown_attribute_lines_go() -> None:
    assert strip("A paragraph.\n{: .note}\n\n* TOC\n{:toc}\n\n## Heading\n") == "A paragraph.\n\n## Heading\n"


def test_pre_block_becomes_a_fence_without_its_tags() -> None:
    text = (
        'Don\'t do this:\n\n<pre>\nmy_metric{label="a"} 1\n'
        '<b>my_metric{label="total"} 7</b>\n</pre>\n\nDone.\n'
    )
    assert strip(text) == (
        'Don\'t do this:\n\n```\nmy_metric{label="a"} 1\nmy_metric{label="total"} 7\n```\n\nDone.\n'
    )


def test_a_power_keeps_its_meaning() -> None:
    assert strip("values up to 2<sup>53</sup> are exact") == "values up to 2^53 are exact"


# --- what stays -----------------------------------------------------------------------------------


def test_code_blocks_with_html_are_untouched() -> None:
    fenced = '```html\n<div class="x">\n<!-- c -->\n{{#include y}}\n</div>\n```\n'
    indented = "Example:\n\n    <span>{% raw %}</span>\n    <!-- kept -->\n"
    assert strip(fenced) == fenced
    assert strip(indented) == indented
    assert strip(f"<div>\n\n{fenced}\n</div>\n") == fenced


def test_inline_code_stays() -> None:
    text = "Use `<div>`, ``{{#include x}}`` and `<!-- x -->` in prose; <b>this</b> goes."
    assert strip(text) == "Use `<div>`, ``{{#include x}}`` and `<!-- x -->` in prose; this goes."


def test_placeholders_and_autolinks_stay() -> None:
    text = "Replace <job-name> and <name> and <VERSION>; see <https://example.com> and a < b > c."
    assert strip(text) == text


def test_directive_only_fence_goes_but_a_fence_with_code_stays() -> None:
    gone = "Before.\n\n```rust\n{{#rustdoc_include ../x.rs:here}}\n```\n\nAfter.\n"
    kept = "```rust\n{{#include ../x.rs:1:3}}\nfn main() {}\n```\n"
    assert strip(gone) == "Before.\n\nAfter.\n"
    assert strip(kept) == kept


def test_plain_text_comes_back_byte_identical() -> None:
    for text in [
        "Plain prose.\n\n\n\nWith four blank lines, trailing spaces  \nand a tab\tinside.\n",
        "Windows\r\nline ends\r\n",
        'Math: a < b and b > c; PromQL up{job="api"} and sum(rate(x[5m])).\n',
        "# Title\n\n- list\n- items\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[link](https://x.y)\n",
        "",
    ]:
        assert strip_markup(text) is text or strip_markup(text) == text


def test_blank_lines_removal_leaves_become_one_and_others_stay() -> None:
    text = "First.\n\n\n\nSecond.\n\n<div>\n\n</div>\n\n<!-- x -->\n\n\nThird.\n"
    assert strip(text) == "First.\n\n\n\nSecond.\n\nThird.\n"


def test_mdbook_chapter() -> None:
    out = strip(CHAPTER)
    assert not MARKERS.search(out.replace('"<div>"', "")), out
    assert "```rust\n{{#rustdoc_include" not in out and "output.txt" not in out
    assert out.startswith("## Keeping Values in a Ring Buffer\n\nA *ring buffer* holds")
    assert "Filename: src/lib.rs\n\n```rust,ignore\n" in out
    assert '    // "<div>" in a string stays: this is code\n' in out
    assert "The capacity is fixed when the buffer is created.\n" in out
    assert (
        "\n### Reading Values Back\n\nCall `get(0)` to read the oldest value; `Vec<T>` would grow instead.\n"
        in out
    )
    assert "\n\n\n" not in out


# --- odd input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "```\nunclosed fence <div>\n",
        "<!-- unclosed comment\n\ntext",
        "text <!-- unclosed inline",
        "<pre>unclosed pre\n<b>x</b>",
        "> :::x\n>",  # the ::: plugin reads past such a last line
        "\x00\x01<div>\xff{{#x}}\ufffd",
        "<<b>div>>",
        "{{#include {{#include x}}}}",
        "<script>alert(1)",
        "\n\n\n",
    ],
)
def test_odd_input_never_raises(text: str) -> None:
    out = strip(text)
    assert "<b>" not in out and "<script" not in out


def test_random_markup_soup_is_stable() -> None:
    pieces = [
        "<div>", "</div>", '<a id="x"></a>', "<!-- c -->", "<!--", "-->", "{{#include x}}", "{{< f >}}",
        "{% raw %}", ":::note", ":::", "{: .x}", "```", "`", "<Tabs>", "import A from 'a';", "text",
        "    ", "> ", "- ", "# ", "<pre>", "</pre>", "<name>", "<br>",
    ]  # fmt: skip
    rng = random.Random(7)
    for _ in range(400):
        text = "".join(
            rng.choice(pieces) + rng.choice(["\n", "\n\n", " ", ""]) for _ in range(rng.randint(1, 30))
        )
        strip(text)


def test_large_and_pathological_input_stays_fast() -> None:
    unit = CHAPTER + "\n"
    big = unit * (1_000_000 // len(unit))
    started = time.perf_counter()
    strip_markup(big)
    assert time.perf_counter() - started < 3.0  # about 0.2 s here; a quadratic path takes minutes
    for piece in ["a <!-- b ", "x <script> y ", "{{< x ", "{# y ", "<!x ", "<? y ", "<A b={ ", "`` ` "]:
        started = time.perf_counter()
        strip_markup(piece * (300_000 // len(piece)))
        assert time.perf_counter() - started < 3.0, piece


# --- plain_text -----------------------------------------------------------------------------------


def test_plain_text_drops_mdbook_directives_and_liquid_tags() -> None:
    text = (
        'Intro {{#include ../listings/x.rs}} and {% include "a.md" %} end.\n\n'
        "{{#rustdoc_include y.rs:here}}\n"
    )
    assert plain_text(text) == "Intro and end."


# --- the loader -----------------------------------------------------------------------------------


def test_loaded_documents_hold_no_markup(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ch05.md").write_text(CHAPTER, encoding="utf-8")
    (docs / "install.md").write_text(
        "---\ntitle: Install\n---\nimport Tabs from '@theme/Tabs';\n\n"
        ":::note\nUse {{ site.version }}.\n:::\n",
        encoding="utf-8",
    )
    (docs / "only-markup.md").write_text(
        "<div>\n<!-- TODO -->\n</div>\n\n{{#include x.rs}}\n", encoding="utf-8"
    )
    (docs / "notes.txt").write_text("Plain text keeps <div> as written.\n", encoding="utf-8")
    result = load_documents(docs)
    by_source = {doc.metadata["source"]: doc for doc in result.documents}
    assert sorted(by_source) == ["ch05.md", "install.md", "notes.txt"]
    for source in ("ch05.md", "install.md"):
        content = by_source[source].page_content
        assert not MARKERS.search(content.replace('"<div>"', "")), content
        assert content == content.strip()
    assert by_source["ch05.md"].metadata["title"] == "Keeping Values in a Ring Buffer"
    assert by_source["install.md"].page_content == "Use."
    assert by_source["install.md"].metadata["title"] == "Install"
    assert by_source["notes.txt"].page_content == "Plain text keeps <div> as written."
    assert [(s.path, s.reason) for s in result.report.skipped] == [
        ("only-markup.md", "no content besides markup (HTML, comments, template directives)")
    ]
    assert result.report.repaired == []  # stripping markup is cleaning, not a repair


def test_langchain_documents_are_stripped_by_format() -> None:
    result = load_documents(
        [
            Document(
                page_content="<div>Kept **text**</div>", metadata={"source": "a.md", "format": "markdown"}
            ),
            Document(page_content="<div>As written</div>", metadata={"source": "b.txt"}),
        ]
    )
    assert [doc.page_content for doc in result.documents] == ["Kept **text**", "<div>As written</div>"]
