"""Imports flow one way: core -> text -> documents, samples, judges -> kg -> personas -> synthesizers
-> scoring -> review -> cli. Every import in every module (lazy ones inside functions included) is checked.
(documents reads Markdown titles with the text tools, so text comes first.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "groundset"

# A subpackage may import its own modules and those of a lower rank; same rank means independent.
RANKS = {
    "core": 0,
    "languages": 0,
    "text": 1,
    "documents": 2,
    "samples": 2,
    "judges": 2,
    "kg": 3,
    "personas": 4,
    "synthesizers": 5,
    "scoring": 6,
    "review": 7,
    "cli": 8,
}
FREE = {"_version"}  # top-level modules any part may import
TOP = {"testing"}  # top-level modules that, like cli, may use every part (none may import them)


def module_name(path: Path) -> list[str]:
    parts = ["groundset", *path.relative_to(PACKAGE).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every groundset import in ``path``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # "from groundset import kg" imports the subpackage kg
            if target == "groundset":
                found += [(node.lineno, f"groundset.{alias.name}") for alias in node.names]
    return [(line, target) for line, target in found if target.split(".")[0] == "groundset"]


def part_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def violations() -> list[str]:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = part_of(".".join(module_name(path)))
        if own is None or own in FREE or own in TOP:
            continue  # groundset/__init__.py sees everything (lazy public API)
        if own not in RANKS:
            problems.append(f"{path.relative_to(PACKAGE)}: subpackage {own!r} has no place in RANKS")
            continue
        for line, target in imported(path):
            other = part_of(target)
            if other is None:
                problems.append(f"{path.relative_to(PACKAGE)}:{line} imports the groundset root")
            elif other in TOP or (other != own and other not in FREE and RANKS.get(other, 99) >= RANKS[own]):
                problems.append(f"{path.relative_to(PACKAGE)}:{line}: {own} imports {target} ({other})")
    return problems


def test_no_backward_or_sideways_imports_between_subpackages():
    problems = violations()
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def test_every_subpackage_has_a_rank():
    parts = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert parts == set(RANKS), parts ^ set(RANKS)


def test_the_check_sees_lazy_and_relative_imports(tmp_path, monkeypatch):
    """A backward import inside a function, written relative, is caught (the Testset -> scoring case)."""
    fake = tmp_path / "groundset"
    (fake / "samples").mkdir(parents=True)
    (fake / "scoring").mkdir()
    for folder in (fake, fake / "samples", fake / "scoring"):
        (folder / "__init__.py").write_text("")
    (fake / "samples" / "testset.py").write_text("def convert():\n    from ..scoring import dataset\n")
    monkeypatch.setattr(f"{__name__}.PACKAGE", fake)
    assert violations() == ["samples/testset.py:2: samples imports groundset.scoring (scoring)"]


def test_no_module_is_over_600_lines():
    """A smell alarm, not a rule to split by: a module this long usually holds more than one idea. Size
    alone is never a reason to split one (DESIGN.md); a split by meaning is."""
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert not long, long


# Names that say a file holds a slice of another module's idea, cut by size or by a group of languages,
# not an idea of its own: "_part2", "_more", "_extra", "_misc", "_romance", "_cjk", "_other", ...
SLICE_NAME = re.compile(
    r"(?:^|_)(?:part\d*|\d+|more|extra|misc|rest|other|others|continued|cont|romance|cjk|latin|asian|european)$"
)


def sliced_names(package: Path) -> list[str]:
    return sorted(
        str(p.relative_to(package))
        for p in package.rglob("*.py")
        if p.stem != "__init__" and SLICE_NAME.search(p.stem)
    )


def test_no_module_is_named_for_a_slice_of_another():
    """A module is one idea: no file is named as a part of another (``out_of_scope_romance``, ``_part2``);
    a language's words live in its own module under groundset/languages."""
    assert not sliced_names(PACKAGE)


def test_the_slice_check_sees_slices(tmp_path):
    for name in (
        "out_of_scope_romance",
        "prompts_part2",
        "kinds_cjk",
        "metrics_2",
        "answer_first",
        "pairs",
    ):
        (tmp_path / f"{name}.py").write_text("")
    assert sliced_names(tmp_path) == [
        "kinds_cjk.py",
        "metrics_2.py",
        "out_of_scope_romance.py",
        "prompts_part2.py",
    ]


def test_the_generator_has_a_few_rooms():
    """groundset/synthesizers holds subpackages whose names say what they hold, not dozens of flat modules."""
    top = [p.name for p in (PACKAGE / "synthesizers").iterdir() if p.name != "__pycache__"]
    assert len(top) <= 12, sorted(top)
