"""The documentation: the MkDocs site builds with warnings as errors, the README stays a page a newcomer
reads, every relative link points at a file, and the reference pages name every CLI option and metric
(so an option added to the code without its line in docs/cli.md fails here, not in a reader's hands)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import yaml

from groundset.cli import app
from groundset.scoring.metrics import METRICS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 250

FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def nav_pages(nav: list) -> list[str]:
    """The Markdown files mkdocs.yml's nav lists, in order (sections flattened)."""
    pages: list[str] = []
    for entry in nav:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages += nav_pages(value) if isinstance(value, list) else [value]
    return pages


def site_page(site: Path, page: str) -> Path:
    """Where MkDocs writes a page with directory URLs (its default): x.md -> x/index.html."""
    stem = page.removesuffix(".md")
    return site / "index.html" if stem == "index" else site / stem / "index.html"


def test_the_site_builds_strictly_with_every_page(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's notice about MkDocs 2.0, not a warning
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    done = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]

    pages = nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    assert sorted(pages) == sorted(p.name for p in DOCS.glob("*.md")), "every page in the nav, once"
    for page in pages:
        assert site_page(site, page).is_file(), page
    # The reliability page includes RELIABILITY.md from the repository's root.
    reliability = site_page(site, "reliability.md").read_text(encoding="utf-8")
    assert "Model-server faults" in reliability and "test_faults.py" in reliability


def test_the_readme_stays_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move reference text to docs/"


def test_the_readme_shows_the_test_command_ci_runs():
    """.ci/run runs the README's test command (its pip only made quiet)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci.startswith("python3 -m venv .venv && ") and "pytest" in ci
    assert ci.replace("pip install -q ", "pip install ") in README.read_text(encoding="utf-8").splitlines()


def relative_links(markdown: str) -> list[str]:
    """Link targets outside code that point into the repository (no scheme, not a bare #anchor)."""
    prose = CODE_SPAN.sub("", FENCE.sub("", markdown))
    targets = [match.group(1) for match in LINK.finditer(prose)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_every_relative_link_points_at_a_file(page):
    links = relative_links(page.read_text(encoding="utf-8"))
    if page == README:
        assert any(link.startswith("docs/") for link in links), "the README links into docs/"
    missing = [link for link in links if not (page.parent / link.split("#")[0]).exists()]
    assert not missing, f"{page.name} links to missing files: {missing}"


def test_the_link_finder_skips_code_and_urls():
    text = "[a](docs/a.md) `[b](b.md)` [c](https://x.io) [d](#top)\n```\n[e](e.md)\n```\n![f](img/f.png)"
    assert relative_links(text) == ["docs/a.md", "img/f.png"]


def commands(group, path=()) -> list[tuple[tuple[str, ...], object]]:
    """Every command of the `groundset` CLI with its path, groups included (their options too)."""
    found = [(path, group)]
    for name, sub in getattr(group, "commands", {}).items():
        found += commands(sub, (*path, name))
    return found


def cli_sections() -> dict[str, str]:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2], strict=True)}


def test_the_cli_reference_names_every_command_and_option():
    sections = cli_sections()
    missing = []
    for path, command in commands(typer.main.get_command(app)):
        title = " ".join(["groundset", *path])
        if title not in sections:
            missing.append(title)
            continue
        for param in command.params:
            names = [param.name.upper()] if param.param_type_name == "argument" else param.opts
            missing += [f"{title} {n}" for n in names if f"`{n}`" not in sections[title]]
    assert not missing, f"docs/cli.md lacks: {missing}"


def test_the_metric_catalogue_names_every_metric():
    catalogue = (DOCS / "metrics.md").read_text(encoding="utf-8")
    missing = [name for name in METRICS if f"| `{name}` |" not in catalogue]
    assert not missing, f"docs/metrics.md's catalogue lacks: {missing}"
