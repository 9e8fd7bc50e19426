"""`--write-docs`: a benchmark script replaces only its own section of docs/benchmarks.md, and every script
that records one has its markers on the page. No benchmark runs here (and nothing checks wall-clock time)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.docs_section import FLAG, PAGE, markers, recorded, replace_section, write_section

ROOT = Path(__file__).resolve().parents[1]


def page_with(*names: str) -> str:
    parts = ["# Benchmarks\n\nIntro, by hand.\n"]
    for name in names:
        begin, end = markers(name)
        parts.append(f"## {name}\n\nProse about {name}, by hand.\n\n{begin}\nold {name} figures\n{end}\n")
    return "\n".join(parts)


def test_replacing_a_section_keeps_every_other_line():
    page = page_with("alpha", "beta", "gamma")
    new = replace_section(page, "beta", "\nnew beta figures\nsecond line\n\n")
    assert "new beta figures\nsecond line\n<!-- end benchmark beta -->" in new
    assert "old beta figures" not in new
    assert new.replace("new beta figures\nsecond line", "old beta figures") == page


def test_a_section_without_its_markers_is_an_error():
    with pytest.raises(ValueError, match="begin benchmark delta"):
        replace_section(page_with("alpha"), "delta", "figures")
    begin, end = markers("alpha")
    with pytest.raises(ValueError, match="exactly one"):
        replace_section(f"{end}\n{begin}\n", "alpha", "figures")  # in the wrong order


def test_writing_a_section_replaces_the_file_and_leaves_no_temporary_file(tmp_path):
    page = tmp_path / "benchmarks.md"
    page.write_text(page_with("alpha", "beta"), encoding="utf-8")
    page.chmod(0o644)
    write_section("alpha", "fresh alpha figures", page)
    text = page.read_text(encoding="utf-8")
    assert "fresh alpha figures" in text and "old beta figures" in text and "old alpha figures" not in text
    assert [p.name for p in tmp_path.iterdir()] == ["benchmarks.md"]
    assert page.stat().st_mode & 0o777 == 0o644


def test_recorded_writes_what_the_block_printed_and_hides_the_flag(tmp_path, capsys):
    page = tmp_path / "benchmarks.md"
    page.write_text(page_with("alpha", "beta"), encoding="utf-8")
    argv = ["benchmarks/alpha.py", "50", FLAG]
    with recorded("alpha", argv, page):
        assert argv == ["benchmarks/alpha.py", "50"]  # the script's own parsing never sees the flag
        print("calls 266 = 2.66 per sample")
    text = page.read_text(encoding="utf-8")
    section = text.split(markers("alpha")[0])[1].split(markers("alpha")[1])[0]
    assert "`python benchmarks/alpha.py 50`" in section
    assert "```text\ncalls 266 = 2.66 per sample\n```" in section
    assert re.search(r"Measured \d{4}-\d\d-\d\d on \d+ cores .*commit \S+", section)
    assert "old beta figures" in text
    assert "calls 266" in capsys.readouterr().out  # still printed to the terminal


def test_recorded_writes_nothing_when_the_block_fails_or_without_the_flag(tmp_path):
    page = tmp_path / "benchmarks.md"
    before = page_with("alpha")
    page.write_text(before, encoding="utf-8")
    with pytest.raises(RuntimeError), recorded("alpha", ["benchmarks/alpha.py", FLAG], page):
        print("half the figures")
        raise RuntimeError("the stub server died")
    with recorded("alpha", ["benchmarks/alpha.py"], page):
        print("figures")
    assert page.read_text(encoding="utf-8") == before


def test_recorded_checks_the_markers_before_the_run(tmp_path):
    page = tmp_path / "benchmarks.md"
    page.write_text(page_with("alpha"), encoding="utf-8")
    ran = []
    with pytest.raises(ValueError), recorded("beta", ["benchmarks/beta.py", FLAG], page):
        ran.append(True)
    assert not ran


def test_every_recording_script_has_its_section_on_the_page():
    scripts = {}
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        if script.name == "docs_section.py":  # its docstring shows the call
            continue
        names = re.findall(r'recorded\("([^"]+)"\)', script.read_text(encoding="utf-8"))
        if names:
            scripts[script.stem] = names
    assert len(scripts) >= 10, scripts
    page = PAGE.read_text(encoding="utf-8")
    for stem, names in scripts.items():
        assert names == [stem], f"{stem}.py records the section {names}, not its own name"
        replace_section(page, stem, "")  # raises unless the markers are there, once, in order
