"""Facts of listed entries (issue 29, fact recall): reference pages list options, parameters and functions
one per list item or table row ("- `max_age` - Sets ...", "| `title` | `str` | The title of the API. |"),
and those entries hold what readers ask most. The texts are from shared corpora (FastAPI tutorial,
Prometheus docs) and from the llama.cpp docs (MIT, ``tests/data/ratings/unseen/LICENSE.llama.cpp``)."""

from __future__ import annotations

import random

from groundset.synthesizers.questions.templates import single_question
from groundset.synthesizers.scenarios.facts import facts_of
from groundset.synthesizers.scenarios.option_facts import entry_facts
from groundset.text.mdparse import parse

from .corpora import SHARED

FASTAPI = SHARED / "fastapi-tutorial" / "docs"
PROMETHEUS = SHARED / "prometheus-docs" / "docs"

OPENCL_OPTIONS = """\
## CMake Options

The OpenCL backend has the following CMake options that control the behavior of the backend.

| CMake options                        | Default value  | Description                               |
|:------------------------------------:|:--------------:|:------------------------------------------|
| `GGML_OPENCL_EMBED_KERNELS`          | `ON`           | Embed OpenCL kernels into the executable. |
| `GGML_OPENCL_USE_ADRENO_KERNELS`     | `ON`           | Use kernels optimized for Adreno.         |
"""

GRAMMAR_FUNCTIONS = """\
- **`eps()`** - Matches nothing and always succeeds (epsilon/empty match)
- **`any()`** - Matches any single character (.)
- `HTP0:0,HTP0:1`: Two virtual sessions on physical NPU 0 (layer-split on single NPU).
- `HANDSHAKE`: Protocol version negotiation and capability discovery
- `BETWEEN_FUNC_AND_ARGS`: Between function name and arguments
"""


def entries(markdown: str) -> dict[tuple[str, str], object]:
    return {(f.focus, f.pattern): f for f in entry_facts(parse(markdown))}


def asked(fact: object) -> set[str]:
    return {single_question(fact, random.Random(seed)) for seed in range(8)}  # type: ignore[arg-type]


def test_a_listed_option_says_what_it_is_does_and_defaults_to():
    """FastAPI's CORS options: what each is, what it does ("Sets ...", "Indicate that ..."), and its
    default from the sentence after the description."""
    by = {(f.focus, f.pattern): f for f in facts_of((FASTAPI / "cors.md").read_text(encoding="utf-8"))}
    assert by[("max_age", "purpose")].reference == (
        "max_age: Sets a maximum time in seconds for browsers to cache CORS responses."
    )
    assert asked(by[("max_age", "purpose")]) == {"What does max_age do?"}
    default = by[("max_age", "default")]
    assert default.answer == "600" and default.reference.endswith("Defaults to 600.")
    assert asked(default) <= {"What does max_age default to?", "What is the default value of max_age?"}
    origins = by[("allow_origins", "definition")]
    assert origins.answer.startswith("A list of origins") and ("allow_origins", "default") not in by
    assert asked(origins) <= {"What is allow_origins?", "What exactly is allow_origins?",
                              "Can you explain what allow_origins is?"}  # fmt: skip
    assert asked(by[("allow_credentials", "purpose")]) == {"What does allow_credentials do?"}


def test_a_table_under_a_parameter_header_names_its_parameters_as_options():
    by = entries((FASTAPI / "metadata.md").read_text(encoding="utf-8"))
    terms = by[("terms_of_service", "definition")]
    assert terms.reference.startswith("terms_of_service: A URL to the Terms of Service")
    assert "What is the terms_of_service option?" in asked(terms) and ("str", "definition") not in by
    # "title: The title of the API." says its name again: "What is the title option?" asks nothing it answers
    assert ("title", "definition") not in by and ("version", "definition") not in by


def test_a_table_with_a_default_column_gives_each_options_default():
    by = entries(OPENCL_OPTIONS)
    embed = by[("GGML_OPENCL_EMBED_KERNELS", "purpose")]
    assert asked(embed) <= {"What does the GGML_OPENCL_EMBED_KERNELS option do?",
                            "What is the GGML_OPENCL_EMBED_KERNELS option for?"}  # fmt: skip
    default = by[("GGML_OPENCL_EMBED_KERNELS", "default")]
    assert default.answer == "ON"
    assert (
        default.reference
        == "GGML_OPENCL_EMBED_KERNELS: Embed OpenCL kernels into the executable. Default: ON."
    )
    assert by[("GGML_OPENCL_USE_ADRENO_KERNELS", "default")].answer == "ON"


def test_listed_functions_say_what_they_do_and_values_are_no_entries():
    by = entries(GRAMMAR_FUNCTIONS)
    assert asked(by[("eps()", "purpose")]) == {"What does eps() do?"}
    assert by[("any()", "purpose")].reference == "any(): Matches any single character (.)."
    # a value list ("HTP0:0,HTP0:1"), a word in capitals alone and a description that opens with a
    # preposition say of nothing what it is
    assert {focus for focus, _ in by} == {"eps()", "any()"}


def test_prometheus_client_methods_are_asked_what_they_do():
    text = (PROMETHEUS / "instrumenting" / "writing_clientlibs.md").read_text(encoding="utf-8")
    found = [f for f in entry_facts(parse(text)) if f.focus == "set_to_current_time()"]
    assert [f.reference for f in found] == [
        "set_to_current_time(): Set the gauge to the current unixtime in seconds."
    ]
    assert asked(found[0]) == {"What does set_to_current_time() do?"}


def test_entries_of_a_german_page_are_left_to_the_german_rules():
    assert entry_facts(parse(OPENCL_OPTIONS), lang="de") == []


def test_a_search_query_keeps_a_functions_parentheses():
    """ "what is json" asks about the format; the entry was the function json()."""
    from groundset.synthesizers.questions.answer_first import fact_question

    by = entries(GRAMMAR_FUNCTIONS)
    queries = {
        fact_question(
            "single_hop_specific", [by[("eps()", "purpose")]], style="web_search", length="short", seed=s
        )
        for s in range(6)
    }
    assert queries and all("eps()" in q for q in queries)


def test_an_item_cut_by_the_chunk_end_and_version_placeholders_are_no_entries():
    """Seen by a blind reader on the Node.js contributing docs (MIT, ``LICENSE.nodejs``): a chunk that ended
    inside a list item gave "markdown.mjs: Contains utility to replace Markdown links to work with.", and a
    table of GitHub labels gave "What does vN.x do?"."""
    cut = (
        "- `common.mjs` - Contains a few utility functions that are used by the other files.\n"
        "- `markdown.mjs` - Contains utility to replace Markdown links to work with\n"
    )
    assert [f.focus for f in entry_facts(parse(cut))] == ["common.mjs"]
    whole = cut.replace("work with\n", "work with the website.\n")
    assert [f.focus for f in entry_facts(parse(whole))] == ["common.mjs", "markdown.mjs"]
    labels = (
        "| Label | Description |\n|---|---|\n"
        "| `vN.x` | Issues or PRs impacting vN.x-staging (or reproducible on vN.x) |\n"
        "| `lts-watch-vN.x` | PRs possibly included in vN.x LTS releases |\n"
    )
    assert entry_facts(parse(labels)) == []
