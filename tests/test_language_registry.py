"""The language registry: one module per language in groundset/languages, each providing every part or
saying why it falls back to English, and every part it provides reaching the code that uses it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from groundset.languages import LANGUAGES, PARTS, WORDINGS
from groundset.personas.local_personas import local_persona
from groundset.scoring.metrics.refusal_phrases import PHRASES
from groundset.synthesizers.kinds.out_of_scope.prompts import LOCAL_ASPECTS, refusal_form
from groundset.text.language import IDENTIFIED_LANGUAGES
from groundset.text.lexical import content_words
from groundset.text.sentences import abbreviations

FOLDER = Path(__file__).resolve().parents[1] / "groundset" / "languages"


def _defines_language(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "LANGUAGE" for t in n.targets)
        for n in tree.body
    )


def test_every_language_file_is_registered_under_its_own_name():
    files = {p.stem for p in FOLDER.glob("*.py") if _defines_language(p)}
    assert files == set(LANGUAGES)
    assert {"en", "de", "fr", "es", "zh", "ja"} <= files
    assert all(code in IDENTIFIED_LANGUAGES for code in LANGUAGES), (
        "a language the detector never names is unused"
    )


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_each_part_is_provided_or_its_fallback_is_explained(code):
    language = LANGUAGES[code]
    assert set(language.falls_back) <= set(PARTS), f"{code}: unknown parts in falls_back"
    for part in PARTS:
        reason = language.falls_back.get(part, "").strip()
        if language.provides(part):
            assert not reason, f"{code} provides {part} and also says it falls back"
        else:
            assert reason, f"{code} neither provides {part} nor says why it falls back to English"


def test_the_five_languages_with_templates_provide_the_words_a_test_set_needs():
    for code in ("de", "fr", "es", "zh", "ja"):
        for part in ("questions", "aspects", "refusal_form", "personas", "refusals", "negations"):
            assert LANGUAGES[code].provides(part), (code, part)


def test_an_unknown_part_is_named_with_the_parts():
    with pytest.raises(ValueError, match="questions"):
        LANGUAGES["de"].provides("grammar")


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_parts_reach_their_users(code):
    language = LANGUAGES[code]
    assert (code in WORDINGS) == language.provides("questions")
    assert (code in PHRASES) == language.provides("refusals")
    assert (code in LOCAL_ASPECTS or code == "en") == language.provides("aspects")
    assert refusal_form(code) == (language.refusal_form or LANGUAGES["en"].refusal_form)
    if language.provides("sentences"):
        assert abbreviations(code) == {
            w[:-1] for w in language.sentences.abbreviations | language.sentences.soft
        }
    if language.provides("negations") and code != "ja":
        negation = sorted(language.negations)[0]
        assert negation not in content_words(f"alpha {negation} beta", code)
    if language.provides("personas"):
        assert local_persona(code, [], []) is not None


def _readme_language_example() -> str:
    """The example file the docs show (docs/languages.md; the README links to it)."""
    page = (FOLDER.parents[1] / "docs" / "languages.md").read_text(encoding="utf-8")
    return page.split("```python\n# groundset/languages/sv.py", 1)[1].split("```", 1)[0]


def test_a_new_language_file_is_all_it_takes(tmp_path, monkeypatch):
    """The docs' example file, dropped into a copy of groundset/languages, is registered (the registry
    reads the folder, it keeps no list) and passes the parts check."""
    import importlib
    import shutil
    import sys

    copy = tmp_path / "langcopy"
    shutil.copytree(FOLDER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "sv.py").write_text(_readme_language_example(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = importlib.import_module("langcopy")
        swedish = module.LANGUAGES["sv"]
        assert swedish.refusal_form.startswith("Dokumentationen") and "inte" in swedish.negations
        assert list(module.LANGUAGES)[:6] == ["en", "zh", "ja", "de", "fr", "es"]
        for part in module.PARTS:
            assert swedish.provides(part) != bool(swedish.falls_back.get(part)), part
    finally:
        for name in [n for n in sys.modules if n == "langcopy" or n.startswith("langcopy.")]:
            del sys.modules[name]
