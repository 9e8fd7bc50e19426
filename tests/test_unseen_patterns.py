"""Failure patterns blind readers found on documentation none of the generator's rules had seen (issue 29):
the CMake command reference (reStructuredText, Sphinx roles and definition lists) and the llama.cpp docs (a
product named like a source file). The quoted lines are from those docs (licences in
``tests/data/ratings/unseen/LICENSE.cmake`` and ``LICENSE.llama.cpp``) or from requests' docs (a shared
corpus)."""

from __future__ import annotations

import random
from collections import Counter

from groundset.core import CallEngine
from groundset.kg.build import build_knowledge_graph
from groundset.kg.graph import NodeKind
from groundset.kg.scope import corpus_scope
from groundset.personas.audience import audience_name, audience_of, distinct_audiences
from groundset.synthesizers.kinds.comparative import said_by_side
from groundset.synthesizers.kinds.distracting import _means, _names_any, near_misses
from groundset.synthesizers.kinds.double import _two_apis, double_question
from groundset.synthesizers.questions.answer_first import fact_question
from groundset.synthesizers.scenarios.answer_patterns import match_sentence, split_article
from groundset.synthesizers.scenarios.fact_index import FactIndex
from groundset.synthesizers.scenarios.fact_pairs import comparable_pairs
from groundset.synthesizers.scenarios.facts import Fact, facts_of
from groundset.synthesizers.scenarios.option_facts import option_facts
from groundset.synthesizers.scenarios.page_name import page_topic, points_elsewhere, section_name
from groundset.synthesizers.scenarios.passages import passages
from groundset.text.plaintext import plain_text

from .corpora import PROMETHEUS_DOCS, SHARED

REQUESTS_QUICKSTART = SHARED / "requests-docs" / "docs" / "user" / "quickstart.rst"
NATIVE_HISTOGRAMS = PROMETHEUS_DOCS / "specs" / "native_histograms.md"

CTEST_CONFIGURE = """\
ctest_configure
---------------

Perform the :ref:`CTest Configure Step` as a :ref:`Dashboard Client`.

The options are:

``BUILD <build-dir>``
  Specify the top-level build directory.  If not given, the
  :variable:`CTEST_BINARY_DIRECTORY` variable is used.

``OPTIONS <options>``
  Specify command-line arguments to pass to the configuration tool.
"""

TARGET_LINK = (
    "Link flags specified here are inserted into the link command in the same place as the link libraries. "
    "Use the :prop_tgt:`LINK_OPTIONS` target property or :command:`target_link_options` command to add "
    "link flags explicitly."
)


def test_a_sphinx_role_is_no_part_of_the_text_it_marks():
    """ ":command:`target_link_options`" reached questions as ":command:target_link_options"."""
    text = plain_text(TARGET_LINK)
    assert ":prop_tgt:" not in text and ":command:" not in text
    assert "Use the LINK_OPTIONS target property or target_link_options command" in text
    line = next(line for line in REQUESTS_QUICKSTART.read_text().splitlines() if ":class:`~requests." in line)
    assert ":class:" not in plain_text(line) and "~" not in plain_text(line)
    assert plain_text("see :ref:`the API guide <api-guide>` first") == "see the API guide first"
    assert plain_text("a key: `value` pair") == "a key: value pair"  # a colon that opens no role stays


# pip's documentation (MIT licence), topics/caching.md and reference/build-system: MyST Markdown roles.
PIP_CACHE = (
    "The {ref}`pip cache` command can be used to manage pip's cache.\n\n"
    "If {pep}`517`'s `prepare_metadata_for_build_wheel` hook is provided by the build backend, that will be "
    "used to generate the packages' metadata."
)


def test_a_myst_role_is_no_part_of_the_text_it_marks():
    """ "{ref}`pip cache`" reached facts as "{ref}pip cache"; a PEP reads as its name, as pages show it."""
    text = plain_text(PIP_CACHE)
    assert "{" not in text and "The pip cache command can be used" in text and "If PEP 517's" in text
    assert plain_text(":pep:`440` and {py:class}`~pip.Finder`") == "PEP 440 and Finder"
    assert plain_text("a set {a} `b`") == "a set {a} b"  # braces apart from the code are no role
    purposes = [f for f in facts_of(PIP_CACHE) if f.pattern == "purpose"]
    assert [f.focus for f in purposes] == ["pip cache command"]


# pip's documentation (MIT licence): user_guide.rst, topics/repeatable-installs.md and
# development/architecture/package-finding.rst, where blind readers failed the facts these sentences gave.
PIP_POINTERS = """\
If ``SomeDependency`` was previously a top-level requirement in your
requirements file, then **replace** that line with the new line. If
``SomeDependency`` is a sub-dependency, then **add** the new line.

The ``LinkCollector`` class is responsible for both the previous step
and fetching the HTML over the network.
"""
PIP_BY_ANOTHER = """\
Constraints files are used for exactly the same reason as requirements files
when you don't know exactly what things you want to install.

Hash-checking mode is a labour-saving alternative to running a private index
server containing approved packages: it removes the need to upload packages,
maintain ACLs, and keep an audit trail.

{ref}`pip wheel` can be used to generate and package all of a project's
dependencies into a single directory that can be converted into a single archive. This archive then allows
installation when index servers are unavailable and avoids time-consuming recompilation.
"""


def test_no_fact_points_at_the_page_around_it_or_at_an_example_name():
    """ "the previous step", "that line", "the new line" and "SomeDependency" mean nothing to the reader of a
    test set; "the previous float value" (Prometheus) is a thing, not text, and stays."""
    assert facts_of(PIP_POINTERS) == []
    assert facts_of(
        "Requirements files are used to override a dependency with a local patch."
    )  # still a fact
    lines = NATIVE_HISTOGRAMS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("- _varbit-xor_"))
    item = "\n".join(lines[start : start + 4])
    varbit = next(f for f in facts_of(item) if f.focus == "varbit-xor")
    assert "the previous float value" in varbit.reference


def test_a_definition_by_another_thing_or_a_subject_cut_at_its_adverb_is_no_fact():
    assert facts_of(PIP_BY_ANOTHER) == []
    # without what cut it, each of them is a fact: the rules remove these, not every such sentence
    assert facts_of("Constraints files are used to control which version of a requirement is installed.")
    assert facts_of(
        "Hash-checking mode is a mode in which pip checks downloaded packages against their hashes."
    )
    assert facts_of("A wheelhouse archive allows installation when index servers are unavailable.")


def test_an_instruction_under_a_definition_list_term_names_the_term():
    """ "Specify command-line arguments to pass to the configuration tool." does not say how (readers: the
    option's name is the answer); the reference reads as the list does, term first."""
    facts = facts_of(CTEST_CONFIGURE, "ctest_configure")
    how_to = [f for f in facts if f.pattern == "procedure"]
    assert how_to and all(f.reference.startswith("OPTIONS <options>: Specify") for f in how_to)
    assert all(":variable:" not in f.reference and ":ref:" not in f.reference for f in facts)


def test_a_relative_clause_is_no_goal_of_a_how_to():
    """ "Specify the directory on disk to which a file will be installed." asked "How do I which a file
    will be installed?"."""
    found = match_sentence("Specify the directory on disk to which a file will be installed.")
    assert found is None or not found.slots.get("goal", "").startswith("which")


def test_a_how_to_answered_by_another_command_is_not_asked_in_the_page_command():
    """ "How do you add include directories in add_definitions?" (answer: include_directories) is a false
    premise; "How do you overwrite existing entries in set()?" (answer: the FORCE option) is not."""
    assert points_elsewhere("include_directories", "add_definitions")
    assert points_elsewhere(
        "the LINK_OPTIONS target property or target_link_options command", "target_link_libraries"
    )
    assert not points_elsewhere("the FORCE option", "set")
    assert not points_elsewhere(
        "multiple execute_process calls with a single COMMAND argument", "execute_process"
    )


def test_a_double_question_of_one_reference_page_names_its_command():
    """ "what happens if OUTPUT_VARIABLE is specified and what happens if DEPENDS is not specified" named no
    command; both halves from one page now name the page's."""
    facts = [
        f
        for f in facts_of(
            "If ``OUTPUT_VARIABLE`` is specified, the output of the build is stored in the named variable. "
            "If ``DEPENDS`` is not specified, the target is always considered out of date.",
            "try_compile",
        )
        if f.pattern == "cause"
    ]
    assert len(facts) == 2
    for style in ("perfect_grammar", "web_search", "poor_grammar"):
        question = double_question(facts, style=style, length="short", seed=3, anchor="try_compile")
        assert "try_compile" in question, question
    assert "try_compile" not in double_question(facts, style="perfect_grammar", seed=3)


def test_a_product_named_like_a_source_file_is_what_the_corpus_is_about(tmp_path):
    """The llama.cpp docs were scoped to "CMake" (their build pages name it), so every question said "in
    CMake" and every persona was a "CMake user"; a capitalised name still wins where it is the most named."""
    pages = {
        "build.md": "# Build\n\nBuild llama.cpp with CMake. The CMake option GGML_CUDA enables CUDA.\n",
        "server.md": "# Server\n\nThe llama.cpp server answers OpenAI-style requests on port 8080.\n",
        "models.md": "# Models\n\nllama.cpp loads models in the GGUF format from a local file.\n",
        "speculative.md": "# Speculative decoding\n\nllama.cpp can draft tokens with a smaller model.\n",
        "docker.md": "# Docker\n\nThe Docker images of llama.cpp are built with CMake.\n",
    }
    for name, text in pages.items():
        (tmp_path / name).write_text(text)
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    assert corpus_scope(kg) == "llama.cpp"
    for name in ("build.md", "docker.md"):
        (tmp_path / name).write_text(pages[name].replace("llama.cpp", "it"))
    (tmp_path / "cmake.md").write_text("# CMake\n\nCMake presets name a build directory.\n")
    (tmp_path / "server.md").write_text("# Server\n\nThe server is configured with CMake options.\n")
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    assert corpus_scope(kg) == "CMake"  # named by 4 of 6 pages, llama.cpp by 2: not half


def test_a_statement_under_a_definition_list_term_is_not_asked_without_it():
    """ "The copied file permissions default to the standard 644 value" is true under
    ``NO_SOURCE_PERMISSIONS`` only; asked alone ("what do copied file permissions default to?") the reference
    misleads (readers)."""
    text = (
        "``NO_SOURCE_PERMISSIONS``\n"
        "  Do not transfer the permissions of the input file to the output file.\n"
        "  The copied file permissions default to the standard 644 value (-rw-r--r--).\n"
    )
    assert not [f for f in facts_of(text, "configure_file") if "644" in f.reference]
    alone = "The copied file permissions default to the standard 644 value (-rw-r--r--).\n"
    assert [f for f in facts_of(alone, "configure_file") if "644" in f.reference]


def test_a_term_over_a_directive_still_scopes_the_indented_paragraphs_under_it():
    """CMake writes "``NO_SOURCE_PERMISSIONS``" then ".. versionadded:: 3.19", and the description as a
    paragraph of its own, indented: it is still the term's."""
    text = (
        "``NO_SOURCE_PERMISSIONS``\n"
        "  .. versionadded:: 3.19\n"
        "\n"
        "  Do not transfer the permissions of the input file to the output file.\n"
        "  The copied file permissions default to the standard 644 value (-rw-r--r--).\n"
        "\n"
        "The copied file keeps its name unless the output path names a file.\n"
    )
    facts = facts_of(text, "configure_file")
    assert not [f for f in facts if "644" in f.reference]
    passages_after = [p for p in passages(text) if p.sentence.startswith("The copied file keeps")]
    assert passages_after and not passages_after[0].term  # not indented: the term's body has ended


def _prometheus_sentence(page: str, opening: str) -> str:
    text = " ".join(plain_text((PROMETHEUS_DOCS / page).read_text(encoding="utf-8")).split())
    start = text.index(opening)
    return text[start : text.index(".", start) + 1]


def test_an_activity_is_no_condition_a_what_happens_question_can_ask():
    """ "What happens when using the OpenVINO backend?" (a caveat of a whole activity): readers kept 22 of 57
    such questions; a gerund that is a subject is a state, and "what happens to X" names what it asks."""
    sentence = _prometheus_sentence("instrumenting/writing_exporters.md", "When taking metrics from another")
    assert not [f for f in facts_of(sentence) if f.pattern == "cause"], sentence
    stated = match_sentence("If logging is enabled, every request is written to the log file.")
    assert stated is not None and stated.pattern == "cause"
    named = match_sentence(
        "When creating tarballs for publishing, the linked packages are resolved to copies."
    )
    assert named is not None and named.slots.get("what") == "the linked packages"


def test_a_pointer_to_other_steps_is_no_answer():
    """ "please follow the guidelines on writing client libraries", "follow Prepare first" (llama.cpp),
    "You can just build using the normal instructions" (llama.cpp): what to do is elsewhere."""
    sentence = _prometheus_sentence(
        "instrumenting/clientlibs.md", "When implementing a new Prometheus client"
    )
    assert not facts_of(sentence), sentence
    assert not facts_of("If AOCL is not installed yet, follow Prepare first.")
    assert not facts_of("You can just build using the normal instructions.")
    assert facts_of("You can add a hotel or car by clicking the boxes and going through the same steps.")


def test_a_judgement_or_a_drawback_is_no_definition():
    """ "What are console templates?" answered "the most powerful way to create templates ...", "What is the
    device memory?" answered "a limitation when running a large model" (llama.cpp): nothing says what it
    is."""
    sentence = _prometheus_sentence("visualization/consoles.md", "Console templates are the most powerful")
    assert not [f for f in facts_of(sentence) if f.pattern == "definition"], sentence
    assert not facts_of("The device memory is a limitation when running a large model.")
    assert [f for f in facts_of("A counter is a cumulative metric that represents a single value.")]


def test_what_a_consequence_depends_on_is_no_consequence():
    """CMake's "the behavior depends on whether it has been defined to be an INHERITED property": the
    outcomes are in the sentences after it, which the reference left out."""
    sentence = (
        "If the test property is not found, the behavior depends on whether it has been defined to be an "
        "INHERITED property or not."
    )
    assert not facts_of(sentence)


def test_an_instruction_under_a_term_asks_what_to_use():
    """ "How do you pass to the configuration tool?" had lost its object; the term is what to use."""
    (fact,) = [f for f in facts_of(CTEST_CONFIGURE, "ctest_configure") if f.pattern == "procedure"]
    question = fact_question("single_hop_specific", [fact], seed=1, anchor="ctest_configure")
    assert "command-line arguments" in question and "ctest_configure" in question, question
    assert fact.answer == "OPTIONS <options>"


def test_package_maintainers_are_not_the_products_maintainers():
    """CMake's docs name "package maintainers" (5 pages) and no contributors: "Maintainer of CMake" asking
    the basics read false; Node.js's contributing guides name contributors: its maintainers are its own."""
    cmake = distinct_audiences([Counter({"user": 20, "maintainer": 5}), Counter({"maintainer": 4})], "CMake")
    assert audience_name(cmake[1], "CMake") == "Maintainer of a project using CMake"
    node = distinct_audiences(
        [Counter({"contributor": 20, "maintainer": 8}), Counter({"maintainer": 6})], "Node.js"
    )
    assert audience_name(node[1], "Node.js") == "Maintainer of Node.js"
    assert audience_of(["Binary logical operators combine conditions."])["operator"] == 0
    assert audience_of(["An operator runs the server for the whole team."])["operator"] == 1


def test_a_reference_link_left_unresolved_reads_as_its_text():
    """Node.js's contributing guides link "[metadata][git-node-metadata]" to a definition at the end of the
    page; in a chunk without it the brackets reached a reference. An index ("a[0][1]") stays."""
    assert (
        plain_text("Add the [metadata][git-node-metadata] to the commit.")
        == "Add the metadata to the commit."
    )
    assert plain_text("See [the guide][] first.") == "See the guide first."
    assert plain_text("The cell a[0][1] holds it.") == "The cell a[0][1] holds it."


def test_a_reference_link_around_code_left_unresolved_reads_as_the_code():
    """The Node.js API reference links most names as "[`net.createConnection()`][]", the definition at the
    end of the page (net.md); markdown-it splits the brackets from the code, and "[net.createConnection()][]"
    reached references. Brackets around code that are no link stay."""
    assert plain_text(
        "For example, it is returned by [`net.createConnection()`][], so the user can use it."
    ) == ("For example, it is returned by net.createConnection(), so the user can use it.")
    assert plain_text("Listen to the [`'request'`][request-event] event.") == "Listen to the 'request' event."
    assert (
        plain_text("It is emitted before the [`'exit'` event][] is.")
        == "It is emitted before the 'exit' event is."
    )
    assert plain_text("An index [`i`] of the list.") == "An index [i] of the list."
    # a link's text that wraps (vm.md: "will [prepare that\nobject][contextified]"; two readers failed the
    # brackets in a reference), not across a paragraph
    assert plain_text("It will [prepare that\nobject][contextified] and return it.") == (
        "It will prepare that object and return it."
    )
    assert "[" in plain_text("It will [prepare that\n\nobject][contextified] and return it.")


def test_a_comparison_of_two_versions_says_which_line_is_whose():
    """ "Exemplars MUST consist of a LabelSet and a value, and MAY have a timestamp." beside "... MUST have a
    timestamp.": without the versions, readers took the Prometheus docs' OpenMetrics pages to contradict
    themselves (3 of 6 comparisons failed so)."""
    page = (PROMETHEUS_DOCS / "specs" / "om" / "open_metrics_spec.md").read_text(encoding="utf-8")
    assert "Exemplars MUST consist of a LabelSet and a value" in " ".join(page.split())
    reference = "Exemplars MUST consist of a LabelSet and a value.\nExemplars MUST have a timestamp."
    facts = (
        facts_of("A counter is a cumulative metric that represents a single monotonically increasing value.")
        * 2
    )
    assert len(facts) == 2
    labelled = said_by_side(reference, facts, ["exemplar", "OpenMetrics 1.0", "OpenMetrics 2.0"])
    assert labelled.split("\n") == [
        "OpenMetrics 1.0: Exemplars MUST consist of a LabelSet and a value.",
        "OpenMetrics 2.0: Exemplars MUST have a timestamp.",
    ]
    assert said_by_side(reference, facts, ["counter", "gauge"]) == reference  # two subjects name themselves


def test_a_page_titled_by_a_name_scopes_its_questions(tmp_path):
    """ "What should you do if nvcc is not found after installation?" is about the llama.cpp page "Setting Up
    CUDA on Fedora": a name the title gives and the page names is what its one-sentence questions are about
    (readers of all three folders listed questions that lost it). Not a word the prose writes in lower case
    ("Architecture"), nor a name most pages use ("API")."""
    pages = {
        "cann.md": "# llama.cpp for CANN\n\nThe CANN backend runs llama.cpp on Ascend NPUs via the API.\n",
        "architecture.md": "# Architecture\n\nThe architecture of llama.cpp splits parsing from the API.\n",
        "api.md": "# The API\n\nThe API of llama.cpp answers OpenAI-style requests.\n",
    }
    for i in range(5):
        pages[f"page{i}.md"] = (
            f"# Topic {i}\n\nThe API of llama.cpp has a part numbered {i} in its architecture.\n"
        )
    for name, text in pages.items():
        (tmp_path / name).write_text(text)
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    index = FactIndex.of(kg)

    def topic(name: str) -> str:
        (document,) = [d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d)["source"] == name]
        return page_topic(kg, kg.chunks_of(document)[0], index.scope, index.lowercase)

    assert topic("cann.md") == "CANN"
    assert topic("architecture.md") == "" and topic("api.md") == ""


# --- step 10: what blind readers failed on the Node.js contributing docs (MIT, LICENSE.nodejs) ---------
def test_a_title_names_its_topic_in_mixed_case_even_when_no_entity_does(tmp_path):
    """ "How must new APIs be marked in Node.js?" came from "Contributing a new API to Node-API", where it
    holds for Node-API only (readers failed it: new Node.js APIs in general follow another process). The
    extractor found no entity "Node-API" there, so the title's mixed-case name counts when the page writes
    it; a mixed-case name most pages write ("OpenTelemetry" here) still does not, nor a name most pages use
    ("API")."""
    pages = {
        "adding-new-napi-api.md": (
            "# Contributing a new API to Node-API\n\nNode-API is the ABI-stable API for native addons. We "
            "encourage contributions to enhance the API, while also ensuring compatibility and adherence to "
            "guidelines. When adding a new API to Node-API, please follow these principles.\n\n"
            "## Documentation and testing\n\nNew APIs must be marked as experimental for at least one minor "
            "Node.js release before promotion.\n"
        ),
        "otel.md": "# Node.js with OpenTelemetry\n\nOpenTelemetry traces requests. OpenTelemetry is good.\n",
    }
    for i in range(4):
        pages[f"page{i}.md"] = (
            f"# Topic {i}\n\nThe API of Node.js part {i} sends OpenTelemetry data to a collector.\n"
        )
    for name, text in pages.items():
        (tmp_path / name).write_text(text)
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False), chunk_size=40).kg
    index = FactIndex.of(kg)
    topics = {}
    for document in kg.nodes(NodeKind.DOCUMENT):
        chunks = kg.chunks_of(document)
        topics[kg.get(document)["source"]] = page_topic(kg, chunks[-1], index.scope, index.lowercase)
    assert topics["adding-new-napi-api.md"] == "Node-API"
    assert topics["otel.md"] == ""


def test_a_requirement_stated_for_a_goal_asks_what_is_needed_not_how():
    """ "How do you run the https benchmarks?" answered "one of autocannon or wrk must be used" missed the
    command; what must be used is what the sentence answers."""
    import random

    from groundset.synthesizers.questions.templates import single_question, web_query

    found = match_sentence("To run the https benchmarks, one of autocannon or wrk benchmarkers must be used.")
    assert found is not None and found.slots.get("requirement") == "yes"
    fact = facts_of("To run the https benchmarks, one of autocannon or wrk benchmarkers must be used.")[0]
    asked = {single_question(fact, random.Random(seed)) for seed in range(6)}
    assert asked <= {
        "What must be used to run the https benchmarks?",
        "What do you need to run the https benchmarks?",
    }
    assert web_query([fact], random.Random(0)) == "what must be used to run https benchmarks"
    plain = match_sentence("To run the https benchmarks, use the simple.js script.")
    assert plain is not None and "requirement" not in plain.slots


def test_be_followed_by_no_participle_is_no_passive_how_to():
    """ "Leaks may be either in addons or Node.js itself." became "how leaks either"."""
    assert match_sentence("Leaks may be either in addons or Node.js itself.") is None
    found = match_sentence("Tests can be run using the test.py script.")
    assert found is not None and found.pattern == "procedure" and found.slots["part"] == "run"


def test_a_bare_verb_before_its_object_is_advice_after_a_condition():
    """ "What happens if the staging branch is not up to date?" was answered with what to do."""
    found = match_sentence(
        "If the staging branch is not up to date relative to main, "
        "bring the appropriate PRs and commits into it."
    )
    assert found is not None and found.slots["form"] == "advice"
    effect = match_sentence("If the file is missing, the build is aborted.")
    assert effect is not None and effect.slots["form"] == "effect"


def test_what_something_is_under_a_condition_is_asked_as_what_it_is():
    """ "What happens to the primary goals when reviewing a pull request?" asked for what they are."""
    import random

    from groundset.synthesizers.questions.templates import single_question
    from groundset.synthesizers.scenarios.fact import Fact

    found = match_sentence(
        "When reviewing a pull request, the primary goals are for the codebase to advance and for the author "
        "to feel welcome."
    )
    assert found is not None and found.slots.get("state") == "are"
    fact = Fact.stated(found, found.subject, "When reviewing a pull request, the primary goals are ...")
    assert (
        single_question(fact, random.Random(0)) == "What are the primary goals when reviewing a pull request?"
    )
    aborted = match_sentence("If the file is missing, the build is aborted.")
    assert aborted is not None and "state" not in aborted.slots  # what happens to the build


def test_the_other_branch_of_a_condition_belongs_to_the_reference():
    """CMake's source_group: readers failed the FILES rule alone; the rule for a file no group lists
    follows it, opening "If no ..." (the text is CMake's, BSD-3-Clause, ``LICENSE.cmake``)."""
    text = (
        "If a source file matches multiple groups, the *last* group that\n"
        "explicitly lists the file with ``FILES`` will be favored, if any.\n"
        "If no group explicitly lists the file, the *last* group whose\n"
        "regular expression matches the file will be favored.\n"
    )
    (fact,) = [f for f in facts_of(text, "source_group", topics=frozenset({"source file"}))]
    assert fact.reference.endswith(
        "the last group whose regular expression matches the file will be favored."
    )


def test_a_newer_version_of_another_command_is_no_definition():
    """ "What is execute_process?" answered "a newer more powerful version of exec_program"."""
    assert (
        match_sentence("The execute_process command is a newer more powerful version of exec_program.")
        is None
    )
    assert match_sentence("The execute_process command is a command that runs child processes.") is not None


def test_a_question_from_a_section_documenting_one_api_names_it(tmp_path):
    """On the Node.js API reference each section documents one function ("### `inspector.open([port[, host[,
    wait]]])`") and its sentences name only parameters: "what happens if wait is true" asked nothing (a blind
    reader failed 9 of 23 single-hop questions so); an option's section names the option. FastAPI's "###
    `UploadFile`" section: "As all these methods are async methods, you need to await them" is about
    UploadFile's methods only."""
    docs = tmp_path / "docs"
    docs.mkdir()
    sections = {  # each long enough to be a chunk of its own, as on the real pages
        "`inspector.open([port[, host[, wait]]])`": "* `wait` {boolean} Block until a client has"
        " connected. Optional.\n\nIf wait is `true`, will block until a client has connected to the"
        " inspect port and flow control has been passed to the debugger client.",
        "Class: `inspector.Session`": "The `inspector.Session` is used for dispatching messages to the V8"
        " inspector back-end and receiving message responses and notifications.",
        "Static method: `Buffer.concat(list[, totalLength])`": "If totalLength is provided, it is coerced to"
        " an unsigned integer.",
        "Exemplars (Experimental)": "Exemplars are references to data outside of the metric set.",
        "GitHub": "GitHub is where the code lives and where pull requests are reviewed.",
        # the cli page: "What happens when mode is no-node-modules?" never named its option (two readers)
        "`--trace-require-module=mode`": "If mode is `no-node-modules`, it excludes the node_modules folder.",
        "`-c`, `--check`": "Syntax check the script without executing.",
    }
    filler = " ".join(f"Paragraph {n} of this section says one more thing about item {n}." for n in range(60))
    (docs / "inspector.md").write_text(
        "# Inspector\n\n"
        + "".join(f"## {title}\n\n{text}\n\n{filler}\n\n" for title, text in sections.items()),
        encoding="utf-8",
    )
    (docs / "request-files.md").write_text(
        (SHARED / "fastapi-tutorial" / "docs" / "request-files.md").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    kg = build_knowledge_graph(docs).kg
    names = {
        (kg.get(c)["section"].rsplit(" > ", 1)[-1], section_name(kg, c)) for c in kg.nodes(NodeKind.CHUNK)
    }
    assert ("inspector.open([port[, host[, wait]]])", "inspector.open()") in names
    assert ("Class: inspector.Session", "inspector.Session") in names
    assert ("Static method: Buffer.concat(list[, totalLength])", "Buffer.concat()") in names
    assert ("UploadFile", "UploadFile") in names
    assert ("Exemplars (Experimental)", "") in names  # a prose heading, not a call
    assert ("GitHub", "") in names  # a mixed-case name the text never writes as code
    assert ("--trace-require-module=mode", "--trace-require-module") in names
    assert ("-c, --check", "--check") in names
    by_api = {section_name(kg, c): c for c in kg.nodes(NodeKind.CHUNK)}
    # two APIs' sections make no double question: "what happens to path if path is not a string, and what
    # happens if a zero-length string is passed as from" (path.toNamespacedPath, path.relative) named neither
    assert _two_apis(kg, by_api["inspector.open()"], by_api["Buffer.concat()"])
    assert not _two_apis(kg, by_api["inspector.open()"], by_api["inspector.open()"])
    (fact,) = facts_of("If wait is `true`, will block until a client has connected to the inspect port.")
    for style in ("perfect_grammar", "web_search"):
        question = fact_question("single_hop_specific", [fact], style=style, anchor="inspector.open()")
        assert "inspector.open()" in question, question


def test_one_comparison_of_each_kin_in_a_test_set(tmp_path):
    """Four of eleven comparisons of a Node.js API test set were "X.desiredSize vs Y.desiredSize" (the Web
    Streams page documents desiredSize on four classes); the blind reader passed each and called the set
    repetitive. Each kin is compared once."""
    docs = tmp_path / "docs"
    docs.mkdir()
    classes = {
        "readableStreamDefaultController": "ReadableStream",
        "readableByteStreamController": "ReadableStream",
        "writableStreamDefaultWriter": "WritableStream",
        "transformStreamDefaultController": "TransformStream",
    }
    filler = " ".join(f"Note {n} about streams and queues in general." for n in range(30))
    text = "# Web Streams API\n\n"
    for name, stream in classes.items():
        text += f"## Class: `{name[0].upper()}{name[1:]}`\n\nEach one belongs to a {{{stream}}}. {filler}\n\n"
        text += (
            f"### `{name}.desiredSize`\n\n* Type: {{number}}\n\nReturns the amount of data remaining to fill"
        )
        text += f" the {{{stream}}}'s queue.\n\n"
    (docs / "webstreams.md").write_text(text, encoding="utf-8")
    kg = build_knowledge_graph(docs).kg
    index = FactIndex.of(kg)
    assert len([f for found in index.facts.values() for f in found if f.focus.endswith(".desiredSize")]) == 4
    pairs = list(comparable_pairs(kg, index, random.Random(5)))
    assert [(a[1].key().rsplit(".", 1)[1], b[1].key().rsplit(".", 1)[1]) for _, a, b in pairs] == [
        ("desiredsize", "desiredsize")
    ]


def test_a_condition_without_its_comma_gives_no_fact():
    """Node.js's crypto page: "If an error occurs an Error will be thrown, otherwise the derived key will be
    returned as a Buffer." and "If encoding is provided publicKey is expected to be a string; otherwise ...":
    read as conditions they were asked "What should you do if an error occurs an Error will be thrown?"
    (a blind reader: garbled, self-answering). So is the stream page's "If any of the streams error then all
    are destroyed, including the outer Duplex stream.", asked "I'm using stream.compose(), and any of the
    streams error then all are destroyed. What happens then?" (self-answering). A condition of two joined
    clauses is still one."""
    _no_condition_but(
        [
            "If an error occurs an Error will be thrown, otherwise the derived key will be returned as a"
            " Buffer.",
            "If encoding is provided publicKey is expected to be a string; otherwise a Buffer is expected.",
            "If any of the streams error then all are destroyed, including the outer Duplex stream.",
            # the dgram page: the condition was cut inside its list, "What happens if msg is a Buffer?"
            "If msg is a Buffer, any TypedArray or a DataView, the offset and length specify the offset.",
        ],
        kept="If a file is added and a test is removed, the run fails.",
        subject="a file is added and a test is removed",
    )


def _no_condition_but(sentences: list[str], kept: str, subject: str) -> None:
    """None of ``sentences`` is a fact, and ``kept`` is a condition on ``subject``."""
    for sentence in sentences:
        assert match_sentence(sentence) is None, sentence
    found = match_sentence(kept)
    assert found is not None and found.pattern == "cause" and found.subject == subject, found


def test_a_tools_section_headed_in_code_names_the_tool():
    """The Prometheus docs' native histograms spec ends with "## `prom2json`": "If a histogram in the
    exposition contains at least one bucket span, `prom2json` will replace ..." was asked "What happens if a
    histogram in the exposition contains at least one bucket span?", about prom2json only (blind readers of
    three rounds failed it). A lower-case name the text writes as code is a tool's."""
    kg = build_knowledge_graph(PROMETHEUS_DOCS / "specs" / "native_histograms.md").kg
    named = {
        section_name(kg, c) for c in kg.nodes(NodeKind.CHUNK) if kg.get(c)["section"].endswith("prom2json")
    }
    assert named == {"prom2json"}
    plain = {
        section_name(kg, c) for c in kg.nodes(NodeKind.CHUNK) if kg.get(c)["section"].endswith("Pushgateway")
    }
    assert plain == {""}  # a capitalised heading in prose is no tool's name


def test_a_near_miss_naming_what_the_how_to_uses_is_no_distractor():
    """ "How can V8 Inspector be enabled?" (Node.js's debugger page: "by passing the --inspect flag") had the
    CLI page's "`--inspect[=[host:]port]` Activate inspector on host:port" as its near-miss; it tells how
    as well (a blind reader failed 3 of 16 distractors so). The product's own name is no such means."""
    (fact,) = facts_of(
        "V8 Inspector can be enabled by passing the --inspect flag when starting a Node.js application."
    )
    assert fact.pattern == "procedure"
    means = _means([fact], "Node.js")
    assert means == {"--inspect"}
    assert _names_any("### `--inspect[=[host:]port]`\n\nActivate inspector on `host:port`.", means)
    assert not _names_any("The `--inspect-brk` flag breaks before user code starts.", means)
    assert not _names_any("V8 Inspector integration allows tools such as Chrome DevTools to attach.", means)


def test_an_answer_of_a_variety_of_ways_is_no_fact():
    """Node.js's buffer page: "The `Buffer` class can be constructed in a variety of ways." was asked "How can
    the Buffer class be constructed?" and answered with that sentence (every reader: it never says how)."""
    assert match_sentence("The Buffer class can be constructed in a variety of ways.") is None
    assert match_sentence("Hosts can be added in a number of ways.") is None
    assert match_sentence("The Buffer class can be constructed with Buffer.alloc().") is not None


def test_a_condition_on_a_pseudocode_variable_gives_no_fact():
    """Node.js's modules page explains its resolution in pseudocode ("If X/package.json is a file, ...");
    "what happens if X parses as a CommonJS module" names a variable the asker cannot see (two readers
    failed it). The article "A" and the pronoun "I" are no such variable."""
    assert (
        match_sentence("If X/package.json is a file, parse X/package.json and look for the main field.")
        is None
    )
    assert match_sentence("If X parses as a CommonJS module, load it as one.") is None
    assert match_sentence("If a package has a type field, it is loaded as an ES module.") is not None


def test_one_subject_is_compared_offline_only_between_versions_of_one_document(tmp_path):
    """ "crypto.subtle: Web Crypto API vs Crypto" (one property documented on two Node.js pages, one an alias
    of the other) and "How do C++ addons and Node-API differ on Node-API?": two readers failed both as one
    thing compared with itself. Offline, one subject compares only as two versions of one document put it
    (OpenMetrics 1.0 and 2.0 on the Prometheus docs; readers kept 3 of 6 of those)."""
    from groundset.synthesizers.kinds.comparative import _comparable
    from groundset.synthesizers.scenarios.fact_pairs import Together
    from groundset.synthesizers.scenarios.page_name import versions_of_one

    assert versions_of_one("OpenMetrics 1.0", "OpenMetrics 2.0 [EXPERIMENTAL]")
    assert not versions_of_one("Web Crypto API", "Crypto") and not versions_of_one("C++ addons", "Node-API")
    docs = tmp_path / "docs"
    docs.mkdir()
    filler = " ".join(f"Note {n} says more about keys and ciphers." for n in range(30))
    for name, title, line in (
        ("webcrypto.md", "Web Crypto API", "The crypto.subtle object is the entry point to SubtleCrypto."),
        (
            "crypto.md",
            "Crypto",
            "The crypto.subtle object is a convenient alias for crypto.webcrypto.subtle.",
        ),
    ):
        (docs / name).write_text(f"# {title}\n\n## `crypto.subtle`\n\n{line} {filler}\n", encoding="utf-8")
    kg = build_knowledge_graph(docs).kg
    index = FactIndex.of(kg)
    sides = [(c, f) for c, found in index.facts.items() for f in found if f.focus == "crypto.subtle object"]
    assert len(sides) == 2, [f.focus for found in index.facts.values() for f in found]
    together = Together(kg)
    assert _comparable(kg, index, sides[0], sides[1], together, rules=False) is None
    assert _comparable(kg, index, sides[0], sides[1], together, rules=True) is not None


def test_an_event_section_names_the_event_and_whose_it_is(tmp_path):
    """Node.js's tls page, "### Event: 'resumeSession'" under "## Class: tls.Server": "What lookup should the
    event listener perform?" named neither (two readers failed it); the section names "the 'resumeSession'
    event of tls.Server"."""
    docs = tmp_path / "docs"
    docs.mkdir()
    filler = " ".join(f"Note {n} says more about sessions and sockets." for n in range(40))
    (docs / "tls.md").write_text(
        "# TLS\n\n## Class: `tls.Server`\n\nAccepts encrypted connections. " + filler + "\n\n"
        "### Event: `'resumeSession'`\n\nThe listener should perform a lookup in external storage for the "
        "session data. "
        + filler
        + "\n\n## Event: `'keylog'`\n\nEmitted when key material is made. "
        + filler,
        encoding="utf-8",
    )
    kg = build_knowledge_graph(docs).kg
    names = {kg.get(c)["section"].rsplit(" > ", 1)[-1]: section_name(kg, c) for c in kg.nodes(NodeKind.CHUNK)}
    assert names["Event: 'resumeSession'"] == "the 'resumeSession' event of tls.Server"
    assert names["Event: 'keylog'"] == "the 'keylog' event"  # under a page title that is no API


def test_a_sections_api_is_named_after_a_capitalised_word_too():
    """Node.js's dgram page, under "### socket.send(msg[, offset, length][, port][, address][, callback])":
    "If `msg` is a `String`, then it is automatically converted to a `Buffer` ..." was asked "What happens if
    msg is a String?" (two readers: which msg?). "String" read as another product's name, after which no
    product is named; the section's API is said after any name."""
    sentence = (
        "If `msg` is a `String`, then it is automatically converted to a `Buffer` with `'utf8'` encoding."
    )
    (fact,) = facts_of(sentence)
    for length in ("short", "medium", "long"):
        question = fact_question("single_hop_specific", [fact], length=length, seed=1, anchor="socket.send()")
        assert "msg is a String in socket.send()" in question, question
    product = fact_question("single_hop_specific", [fact], length="medium", seed=1, scope="Node.js")
    assert "Node.js" not in product  # the product, after another name, still is not said


def test_a_twin_apis_section_is_no_distractor(tmp_path):
    """Node.js documents `http.createServer()` and `https.createServer()` alike: "What is requestListener in
    http.createServer()?" with the https section as its near-miss ("A listener to be added to the 'request'
    event") was failed by three readers as a second answer. A section documenting a member of the same name
    in another module is no near-miss; another member of the same module still is."""
    from groundset.synthesizers.kinds.distracting import _member

    assert _member("http.createServer()") == _member("https.createServer()") == "createServer"
    assert _member("net.createServer()") != _member("net.connect()")
    assert (
        _member("URL") == "" and _member("the 'close' event of net.Socket") == "" and _member("--check") == ""
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    filler = " ".join(f"Note {n} about servers, requests and listeners." for n in range(40))
    for module, other in (("http", "request"), ("https", "get")):
        (docs / f"{module}.md").write_text(
            f"# {module.upper()}\n\n## `{module}.createServer([options][, requestListener])`\n\n"
            "The requestListener is a function which is automatically added to the 'request' event of "
            f"{module}. "
            f"{filler}\n\n## `{module}.{other}(url[, options])`\n\nThe requestListener is not used by this "
            f"call; responses go to the callback instead. {filler}\n",
            encoding="utf-8",
        )
    kg = build_knowledge_graph(docs).kg
    by_api: dict[str, set[str]] = {}
    for chunk in kg.nodes(NodeKind.CHUNK):
        by_api.setdefault(section_name(kg, chunk), set()).add(chunk)
    asked = next(c for c in by_api["http.createServer()"] if "automatically added" in kg.get(c)["text"])
    found = set(near_misses(kg, asked, "requestListener", ["no such answer"]))
    assert found and not found & by_api["https.createServer()"]
    assert found & (by_api["http.request()"] | by_api["https.get()"])  # other members still serve


def test_an_api_property_is_asked_as_a_property_not_an_option():
    """ "What does the event.timeStamp option do?": the Node.js API reference types a property in braces
    ("* Type: {number}"), and both readers called "option" a template's slip. A configuration reference's
    option (a type written bare or as code) stays an option."""
    node = (
        "#### `event.timeStamp`\n\n<!-- YAML\nadded: v14.5.0\n-->\n\n* Type: {number}\n\n"
        "The millisecond timestamp when the `Event` object was created.\n"
    )
    (purpose,) = [
        f
        for f in option_facts(node, "EventTarget and Event API > `event.timeStamp`")
        if f.pattern == "purpose"
    ]
    questions = {fact_question("single_hop_specific", [purpose], seed=seed) for seed in range(8)}
    assert all("property" in q and "option" not in q for q in questions), questions
    vite = "## server.port\n\n- **Type:** `number`\n- **Default:** `5173`\n\nSpecify server port.\n"
    facts = option_facts(vite, "Server Options > server.port")
    assert facts and all(
        "option" in fact_question("single_hop_specific", [f], seed=seed) for f in facts for seed in range(4)
    )


def test_means_after_a_verb_is_a_noun_not_a_definition():
    """ "The serialization API provides means of serializing JavaScript values ..." (Node.js's v8 page) read
    as "<the serialization API provides> means <...>": "What does the serialization API provides mean?",
    which both readers failed as a template's garble."""
    sentence = (
        "The serialization API provides means of serializing JavaScript values in a way that is compatible "
        "with the HTML structured clone algorithm."
    )
    assert match_sentence(sentence) is None
    defined = match_sentence("Staleness means that a series is no longer exported.")
    assert defined is not None and defined.pattern == "definition" and defined.subject == "Staleness"


# --- step 14: what blind readers failed on FastAPI's and pip's docs -----------------------------------------
FASTAPI_DOCS = SHARED / "fastapi-tutorial" / "docs"


def test_a_page_topic_is_no_anchor_of_a_subject_that_names_itself(tmp_path):
    """ "What exactly is request.state in SQL?" (the SQL databases page's topic): a name needs no topic, and
    readers failed it as a section title's leak; a generic subject keeps its page's ("origin", of CORS)."""
    import numpy as np

    from groundset.personas import Persona
    from groundset.synthesizers.kinds.single_hop import SingleHopSpecificQuerySynthesizer
    from groundset.synthesizers.scenarios.page_name import names_itself
    from groundset.synthesizers.scenarios.scenario import PersonaPool

    for page in ("sql-databases.md", "cors.md", "metadata.md"):
        (tmp_path / page).write_text((FASTAPI_DOCS / page).read_text(encoding="utf-8"), encoding="utf-8")
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    pool = PersonaPool(
        [Persona(name="Developer", role_description="Builds APIs.")], np.zeros((1, 0), np.float32)
    )
    synth = SingleHopSpecificQuerySynthesizer("offline")
    anchors = {s.facts[0].focus: s.anchor for s in synth.scenarios(kg, 40, pool, random.Random(0))}
    assert anchors["request.state"] == "" and anchors["origin"] == "CORS" and anchors["max_age"] == "CORS"
    assert all(names_itself(name) for name in ("request.state", "LinkCollector class", "OAuth2 with scopes"))
    assert not names_itself("hardware support for VMM") and not names_itself("origin")
    assert not names_itself("max_age")  # a parameter of what the page is about


def test_an_entry_described_by_its_own_name_and_a_code_subject_that_only_has_something_give_no_fact():
    """ "version: The version of the API." (FastAPI's metadata table) asked "version option meaning"; "The
    RequestValidationError contains the body it received with invalid data." says what it holds, not what
    it does (readers failed both); "The path.join() method joins ..." opens its section and is asked."""
    table = (FASTAPI_DOCS / "metadata.md").read_text(encoding="utf-8")
    described = {f.focus for f in option_facts(table, "Metadata for API")}
    assert "version" not in described and "summary" not in described and "terms_of_service" in described
    heading = "## Use the `RequestValidationError` body\n\n"
    contains = heading + "The `RequestValidationError` contains the body it received."
    assert facts_of(contains) == []
    joins = "## `path.join([...paths])`\n\nThe `path.join()` method joins all given path segments together."
    (fact,) = facts_of(joins)
    assert fact.slots["how"] == "does" and fact_question("single_hop_specific", [fact], length="short") == (
        "What does the path.join() method do?"
    )


def test_how_a_thing_ships_or_a_quoted_kinship_is_no_definition():
    """ "What is the Prometheus Node Exporter?" answered "a single static binary that you can install via
    tarball" (readers failed it in three rounds: it says nothing of what it exports); "Cookie is a "sister"
    class of Path and Query" says whose kin it is, not what it is for."""
    node_exporter = (PROMETHEUS_DOCS / "guides" / "node-exporter.md").read_text(encoding="utf-8")
    line = next(line for line in node_exporter.splitlines() if "single static binary" in line)
    assert not [f for f in facts_of(line) if f.pattern == "definition"]
    cookie = (FASTAPI_DOCS / "cookie-params.md").read_text(encoding="utf-8")
    line = next(line for line in cookie.splitlines() if '"sister" class' in line)
    assert not [f for f in facts_of(line) if f.pattern == "definition"]
    assert facts_of("A binary search tree is a tree that keeps its keys in order.")  # "binary" as a word


def test_a_subject_is_asked_again_only_when_every_other_has_been_asked(tmp_path):
    """ "What does max_age do?" and "What does max_age default to?" in one set (FastAPI's CORS options): both
    readers called such pairs near-duplicates. Within each pass (on-topic facts first), every subject is
    asked once before any is asked again."""
    from groundset.synthesizers.kinds.single_hop import SingleHopSpecificQuerySynthesizer

    (tmp_path / "cors.md").write_text(
        (FASTAPI_DOCS / "cors.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    keys = [
        facts[0].key() for _, _, facts in SingleHopSpecificQuerySynthesizer().groundings(kg, random.Random(5))
    ]
    first_repeat = next(i for i, key in enumerate(keys) if key in keys[:i])
    assert len(set(keys[:first_repeat])) == first_repeat and set(keys[:first_repeat]) == set(keys)
    assert "max_age" in keys and keys.count("max_age") == 2  # its purpose and its default, both still asked


def test_a_double_question_asks_two_things_not_one_twice():
    """FastAPI's upload page says how to "define files to be uploaded" and, in its recap, how to "declare
    files to be uploaded in the request": joined, one question twice (failed by its reader); a counter and
    a gauge are two things."""
    from groundset.synthesizers.kinds.double import _distinct

    text = (FASTAPI_DOCS / "request-files.md").read_text(encoding="utf-8")
    define = next(
        line for line in text.splitlines() if line.startswith("You can define files to be uploaded")
    )
    declare = next(
        line for line in text.splitlines() if "to declare files to be uploaded in the request" in line
    )
    (first,), (second,) = facts_of(define), facts_of(declare)
    assert not _distinct(first, second)
    counters = (PROMETHEUS_DOCS / "concepts" / "metric_types.md").read_text(encoding="utf-8")
    counter, gauge = (
        next(f for f in facts_of(counters) if f.pattern == "definition" and f.key() == key)
        for key in ("counter", "gauge")
    )
    assert _distinct(counter, gauge)


def test_a_list_of_differences_gives_no_facts():
    """ "Notable differences inside a Worker environment are: ... process.env is a copy of the parent thread's
    environment variables" (Node.js) was asked as what process.env is (both readers failed it): the items of
    a list of differences hold in one setting only. The Prometheus float histogram's list is one."""
    text = NATIVE_HISTOGRAMS.read_text(encoding="utf-8")
    start = text.index("The sample data of a float histogram has the following differences:")
    part = text[start : text.index("\n\n", text.index("- The bucket population", start))]
    assert "The count of observations and the zero bucket populations are floats" in part
    assert [p for p in passages(part) if "zero bucket populations" in p.sentence] == []
    listed = part.replace("has the following differences:", "is encoded as follows:")
    assert [
        p for p in passages(listed) if "zero bucket populations" in p.sentence
    ]  # any other list: its items


# Node.js's esm.md (MIT, LICENSE.nodejs): the resolver's errors, each labelled by its name.
RESOLVER_ERRORS = """\
The resolver can throw the following errors:

* _Invalid Module Specifier_: Module specifier is an invalid URL, package name
  or package subpath specifier.
* _Module Not Found_: The package or module requested does not exist.
"""


def test_a_label_that_names_a_kind_of_the_subject_makes_no_definition_of_the_subject():
    """ "What is a module specifier?" answered "an invalid URL, package name or package subpath specifier"
    (the Invalid Module Specifier error; readers failed it in four rounds)."""
    assert not [f for f in facts_of(RESOLVER_ERRORS) if f.key() == "module specifier"]
    (entry,) = facts_of("* `scrape_interval`: The scrape interval is how often targets are scraped.")
    assert entry.reference.startswith("scrape_interval: ")  # a label that is the subject itself stays


def test_a_condition_on_an_argument_is_asked_only_under_its_apis_name(tmp_path):
    """ "What happens when a commit is given?" (llama.cpp's release page: the make-release workflow is not
    named) and "what happens if any other value is provided" (Node.js) asked nothing; "What happens if
    listener is provided in emitter.listenerCount()?" readers kept. The fact stays; its question needs the
    name of the API (from ``LICENSE.nodejs`` and ``LICENSE.llama.cpp`` docs)."""
    import numpy as np

    from groundset.personas import Persona
    from groundset.synthesizers.kinds.single_hop import SingleHopSpecificQuerySynthesizer
    from groundset.synthesizers.scenarios.facts import names_its_call
    from groundset.synthesizers.scenarios.scenario import PersonaPool

    filler = " ".join(f"Paragraph {n} of this section says one more thing about item {n}." for n in range(60))
    (tmp_path / "release.md").write_text(
        "# Releases\n\n## Making a release\n\n"
        "The workflow runs against the branch selected in the dialog and takes an optional `commit` SHA. "
        "When a commit is given, the workflow validates that the commit belongs to the branch and is not "
        f"older than 3 days from the branch HEAD.\n\n{filler}\n",
        encoding="utf-8",
    )
    (tmp_path / "events.md").write_text(  # Node.js's events page, as it is
        "# Events\n\n### `emitter.listenerCount(eventName[, listener])`\n\n"
        "* `eventName` {string|symbol} The name of the event being listened for\n"
        "* `listener` {Function} The event handler function\n* Returns: {integer}\n\n"
        "Returns the number of listeners listening for the event named `eventName`.\n"
        "If `listener` is provided, it will return how many times the listener is found\n"
        f"in the list of the listeners of the event.\n\n{filler}\n",
        encoding="utf-8",
    )

    def cause(sentence):
        match = match_sentence(sentence)
        return Fact.stated(match, match.subject, sentence)

    commit = cause("When a commit is given, the workflow validates that the commit belongs to the branch.")
    address = cause("If address is not provided or otherwise nullish, 127.0.0.1 will be used.")
    named = cause("If NODE_OPTIONS is given, the options are read from it before the command line.")
    call_id = cause("When a call ID is detected, per_call_end may have been incorrectly set.")
    assert not names_its_call(commit) and not names_its_call(address) and names_its_call(named)
    assert not names_its_call(call_id)  # "ID" is no name of a call
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    pool = PersonaPool([Persona(name="Developer", role_description="Builds.")], np.zeros((1, 0), np.float32))
    synth = SingleHopSpecificQuerySynthesizer("offline")
    anchors = {s.facts[0].focus: s.anchor for s in synth.scenarios(kg, 40, pool, random.Random(0))}
    assert anchors.get("listener is provided") == "emitter.listenerCount()", anchors
    assert not any("commit" in focus for focus in anchors), anchors


def test_who_uses_a_thing_or_where_is_no_how_to_and_advice_may_open_with_either():
    """ "It can be used in Swift projects without the need to compile the library" (llama.cpp's XCFramework
    page) was asked "How can the XCFramework be used?", Prometheus's "A library may be used by multiple
    independent parts of an application" "How can a library be used?" (readers failed both); "If a model
    requires a specific prompt, either let the user provide it or bake it into the Jinja chat template" is
    advice ("What should you do if ...?"), not what happens."""
    for sentence in (
        "The XCFramework can be used in Swift projects without the need to compile the library from source.",
        "A library may be used by multiple independent parts of an application against different resources.",
    ):
        found = match_sentence(sentence)
        assert found is None or found.pattern != "procedure", found
    modes = match_sentence("Configuration class can be used in two modes, for reading and for writing.")
    assert modes is not None and modes.pattern == "procedure"
    advice = match_sentence(
        "If a model requires a specific prompt, either let the user provide it or bake it into the Jinja"
        " chat template."
    )
    assert advice is not None and advice.slots["form"] == "advice"


def test_a_default_that_depends_and_a_status_in_a_support_table_give_no_fact():
    """llama.cpp's multi-GPU table: "--tensor-split ... | mode-dependent | How much of the model goes to each
    GPU. If omitted, ..." was asked "What does --tensor-split default to?" and answered "mode-dependent"; its
    ZenDNN table's "MUL_MAT | Support | Accelerated via ZenDNN LowOHA MatMul" answered "What is MUL_MAT?".
    Readers failed both; "--main-gpu" defaults to a value, "Embed OpenCL kernels" says what an option does."""
    table = (
        "## Command-line arguments reference\n\n"
        "| Short | Long | Value | Default | Notes |\n|---|---|---|---|---|\n"
        "| `-ts` | `--tensor-split` | comma-separated proportions | mode-dependent | How much of the model"
        " goes to each GPU. If omitted, `layer`/`row` use automatic splitting proportional to memory. |\n"
        "| `-mg` | `--main-gpu` | integer device index | `0` | The single GPU used in"
        " `--split-mode none`. |\n"
    )
    found = {(f.pattern, f.focus) for f in option_facts(table, "Command-line arguments reference")}
    assert ("default", "--main-gpu") in found and ("default", "--tensor-split") not in found, found
    assert ("definition", "--tensor-split") in found or ("purpose", "--tensor-split") in found, found
    support = (
        "## Supported Operations\n\n| Operation | Status | Notes |\n|---|---|---|\n"
        "| MUL_MAT | Support | Accelerated via ZenDNN LowOHA MatMul |\n"
        "| GGML_OPENCL_EMBED_KERNELS | ON | Embed OpenCL kernels into the executable |\n"
    )
    found = {f.focus for f in option_facts(support, "Supported Operations")}
    assert "MUL_MAT" not in found and "GGML_OPENCL_EMBED_KERNELS" in found, found


def test_a_list_of_differences_split_from_its_lead_in_gives_no_facts_either():
    """Node.js's worker page was chunked right after "Notable differences inside a Worker environment are:",
    so the next chunk opened with the items and "process.env is a copy of the parent thread's environment
    variables" was asked as what process.env is again (both readers failed it once more). The chunk before,
    in the same section, lends its lead-in; a list that opens a chunk after any other paragraph keeps its
    facts."""
    from groundset.kg.graph import KnowledgeGraph
    from groundset.synthesizers.scenarios.passages import continued_list

    lead = (
        "## Class: `Worker`\n\nThe `Worker` class represents an independent JavaScript execution thread.\n\n"
        "Notable differences inside a Worker environment are:"
    )
    items = (
        "* `process.env` is a copy of the parent thread's environment variables, unless otherwise"
        " specified.\n"
        "* The `isMainThread` property is set to `false` inside of a Worker environment.\n"
    )
    assert continued_list(lead, items).startswith("Notable differences inside a Worker environment are:")
    other = lead.replace("Notable differences inside a Worker environment are:", "It has these properties:")
    assert continued_list(other, items) == items
    assert continued_list(lead, "Some prose.\n\n" + items) == "Some prose.\n\n" + items

    def process_env_facts(before: str, section: str) -> list:
        kg = KnowledgeGraph()
        doc = kg.add_document(before + "\n\n" + items, source="worker_threads.md", title="Worker threads")
        kg.add_chunk(doc, before, position=0, section="Worker threads > Class: Worker")
        kg.add_chunk(doc, items, position=1, section=section)
        index = FactIndex.of(kg)
        return [f for found in index.facts.values() for f in found if f.key() == "process.env"]

    assert process_env_facts(lead, "Worker threads > Class: Worker") == []
    assert process_env_facts(other, "Worker threads > Class: Worker")  # a list of what it has: facts


# The Rust book (MIT or Apache-2.0, ``tests/data/ratings/unseen/LICENSE.rust-book``), as rustup installs it.
RUST_UNWRAP = (
    "If the Result value is the Ok variant, unwrap will return the value inside the Ok. If the Result is the "
    "Err variant, unwrap will call the panic! macro for us. Here is an example of unwrap in action:"
)


def test_a_macros_exclamation_mark_ends_no_sentence():
    """ "If the Result is the Err variant, unwrap will call the panic!" and "... declarative macros with
    macro_rules!" were references cut at a Rust macro's name (both readers failed all three)."""
    from groundset.text.sentences import split_sentences

    assert split_sentences(RUST_UNWRAP, "en") == [
        "If the Result value is the Ok variant, unwrap will return the value inside the Ok.",
        "If the Result is the Err variant, unwrap will call the panic! macro for us.",
        "Here is an example of unwrap in action:",
    ]
    assert split_sentences("It failed! Then we retried. Really? Yes.", "en") == [
        "It failed!", "Then we retried.", "Really?", "Yes.",
    ]  # fmt: skip


def test_what_an_imagined_case_would_do_and_the_authors_own_example_give_no_fact():
    """ "What happens if Rust accepted an incorrect program?" (users wouldn't be able to trust it), "What
    happens if we pin them?": a case the book imagines, or its authors' own example, is no behaviour a reader
    asks about (readers failed them on the Rust book, and "the header would be: Bearer foobar" on
    FastAPI's)."""
    _no_condition_but(
        [
            "If Rust accepted an incorrect program, users wouldn’t be able to trust the guarantees Rust"
            " makes.",
            "If we pin them, we can pass the resulting Pin type into the Vec.",
            "If the token contains foobar, the content of the Authorization header would be: Bearer foobar.",
        ],
        kept="If the Result is the Err variant, unwrap will call the panic! macro for us.",
        subject="the Result is the Err variant",
    )


def test_two_purposes_of_one_subject_are_one_question_twice():
    """ "What does the Debug trait allow, and what does it enable you to do?" (multi-hop) and "What does the
    Debug trait enable you to do?" then "What does it allow you to do?" (a conversation): both readers failed
    both; two purposes of one subject, like two definitions, are not two questions."""
    from groundset.synthesizers.kinds.conversational.synthesizer import distinct_turns
    from groundset.synthesizers.scenarios.fact_pairs import _ordered

    allows = (
        "The Debug trait allows you to print instances of a type for debugging purposes, so you and other "
        "programmers using your type can inspect an instance at a particular point in a program’s execution."
    )
    enables = (
        "The Debug trait enables debug formatting in format strings, which you indicate by adding :? within"
        " {} placeholders."
    )

    def stated(sentence):
        match = match_sentence(sentence)
        return Fact.stated(match, split_article(match.subject)[1], sentence)

    first, second = stated(allows), stated(enables)
    assert first.pattern == second.pattern == "purpose" and first.key() == second.key()
    assert _ordered(("a", first), ("b", second), first.key()) is None
    index = FactIndex({"a": [first], "b": [second]})
    assert not distinct_turns(index, ("a", first), ("b", second), first.plural)


def test_a_languages_operator_is_no_reader_of_the_docs():
    """ "the ? operator", "the dereference operator" (60 lines of the Rust book) made "Operator running Rust"
    the persona of 16 of 40 questions; "If an operator ..." still names a person."""
    text = (
        "The ? operator can only be used in functions whose return type is compatible. Rust substitutes the "
        "dereference operator for you. Use the + operator to concatenate strings."
    )
    assert audience_of([text])["operator"] == 0
    assert audience_of(["If an operator changes the retention, the old blocks are deleted."])["operator"] == 1


def test_a_condition_on_an_examples_variable_needs_the_apis_name_and_it_points_back():
    """Issue 29's first pattern, on the Rust book read as Markdown would be (inline code kept): "What happens
    if value does pass the test?" (`value` of the book's running example) and "What happens when you give it
    two futures?" ask nothing. A bare variable written as code is asked only under an API's name, as
    Node.js's "If `wait` is `true`" is in inspector.open(); "it" right after "you <verb>" points back."""
    from groundset.synthesizers.scenarios.facts import names_its_call

    (value,) = facts_of(
        "If `value` does pass the test, the program prints the result and exits.", topics=frozenset({"test"})
    )
    assert value.pattern == "cause" and not names_its_call(value)
    (named,) = facts_of(
        "If `NODE_OPTIONS` is set, the options are read before the command line.", topics=frozenset()
    )
    assert names_its_call(named)
    assert match_sentence("If you give it two futures, it will wait for both of them to finish.") is None
    kept = match_sentence(
        "If you have created your own encoding and registered it with the codecs module, you can simply use "
        "the codec name."
    )
    assert kept is not None and kept.pattern == "cause"


def test_a_describing_compound_is_no_pages_topic(tmp_path):
    """The Rust book's "Characteristics of Object-Oriented Languages" gave its questions "... in
    Object-Oriented?": a hyphenated adjective says what kind, it names nothing."""
    (tmp_path / "oo.md").write_text(
        "# Characteristics of Object-Oriented Languages\n\n"
        + "Object-Oriented programs are made up of objects. Object-Oriented design packages data.\n\n" * 3,
        encoding="utf-8",
    )
    for n in range(8):  # other chapters, so that one page's name is no word of every page
        (tmp_path / f"chapter-{n}.md").write_text(
            f"# Chapter {n}\n\n" + f"Topic number {n} is covered here with examples.\n\n" * 3,
            encoding="utf-8",
        )
    (tmp_path / "cann.md").write_text(
        "# llama.cpp for CANN\n\n"
        + "CANN is a heterogeneous computing architecture. CANN runs on NPUs.\n\n" * 3,
        encoding="utf-8",
    )
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    topics = {
        kg.get(kg.get(c)["document"])["source"]: page_topic(kg, c, "llama.cpp", frozenset())
        for c in kg.nodes(NodeKind.CHUNK)
    }
    assert topics["oo.md"] == "" and topics["cann.md"] == "CANN", topics


def test_a_part_of_the_pages_example_is_no_subject():
    """ "What is variable s?", "guess in expression meaning" (the Rust book's listings; readers kept 0 of 10
    readings): a variable of one plain word, a part of "the expression", a value in one of the example's
    names is no subject an asker can name. A variable with a name of its own is (FastAPI's
    ``oauth2_scheme``), and so is a kind of variable."""
    for sentence in (
        "The variable `s` refers to a string literal, where the value of the string is hardcoded into the "
        "text of our program.",
        "The `guess` in the expression refers to the original `guess` variable that contained the input as a "
        "string.",
        "The `5` in `five` is the function’s return value, which is why the return type is `i32`.",
    ):
        assert [f for f in facts_of(sentence) if f.pattern == "definition"] == [], sentence
    (named,) = facts_of(
        'The `oauth2_scheme` variable is an instance of `OAuth2PasswordBearer`, but it is also a "callable".'
    )
    assert named.focus == "oauth2_scheme variable"
    (shadowed,) = facts_of(
        "A shadowed variable is a variable that is hidden by a later declaration of the same name in an "
        "inner scope."
    )
    assert shadowed.focus == "shadowed variable"  # a kind of variable, not one of the example's


def test_a_definition_in_its_subjects_own_words_defines_nothing():
    """ "Can you explain what the state pattern is?" answered "The state pattern is an object-oriented design
    pattern." (the Rust book; both readers: it leaves out what the pattern is): the subject's own words in
    its definition say nothing, so a definition must have enough words besides them."""
    state = "The state pattern is an object-oriented design pattern."
    assert [f for f in facts_of(state) if f.pattern == "definition"] == []
    (fuller,) = [
        f
        for f in facts_of(
            "A counter is a cumulative metric that represents a single monotonically increasing counter."
        )
        if f.pattern == "definition"
    ]
    assert fuller.focus == "counter"
    (api,) = facts_of(
        "The `error.path` property is the absolute file path."
    )  # an API's own words may define it
    assert api.pattern == "definition"


def test_a_hedged_advice_is_advice():
    """ "What happens to chances if you're unsure whether to use an array or a vector?" (the Rust book, both
    readers: garbled): "chances are you should ..." says what to do, as "you should ..." does."""
    (fact,) = facts_of(
        "If you’re unsure whether to use an array or a vector, chances are you should use a vector.",
        topics=frozenset({"array", "vector"}),
    )
    assert fact.slots["form"] == "advice" and "what" not in fact.slots
    assert match_sentence("If the disk fills up, chances are the server will stop.").slots["form"] == "effect"


def test_a_goal_whose_main_clause_opens_with_after_is_no_how_to():
    """ "I'm trying to ensure memory safety: how do I do that?" answered "To ensure memory safety, after the
    line let s2 = s1;, Rust considers s1 as no longer valid" (the Rust book, both readers): "after the" is no
    verb and its object, so the sentence says what Rust does, not what to do."""
    assert (
        match_sentence(
            "To ensure memory safety, after the line `let s2 = s1;`, Rust considers `s1` as no longer valid."
        )
        is None
    )
    kept = match_sentence("To ensure memory safety, move the value into the new variable.")
    assert kept is not None and kept.pattern == "procedure"


def test_a_demonstrative_for_what_came_before_is_no_answer():
    """ "What does Pin do?" answered "Pin builds on that to give us the exact guarantee we need." (the Rust
    book): "that" is the paragraph before, which the reference leaves out."""
    page = "## The Pin type\n\n{} It is a wrapper type.\n"
    assert facts_of(page.format("`Pin` builds on that to give us the exact guarantee we need.")) == []
    (kept,) = facts_of(
        page.format("`Pin` builds on the `Unpin` trait to give us the exact guarantee we need.")
    )
    assert kept.focus == "Pin"


def test_any_place_will_do_is_no_how_to():
    """ "How can constants be declared?" answered "Constants can be declared in any scope, ..." (the Rust
    book, 0 of 6 readings kept): where they may be, not how. A how stays one ("in either SPDX or CycloneDX
    format")."""
    assert (
        match_sentence(
            "Constants can be declared in any scope, including the global scope, which makes them useful for "
            "values that many parts of code need to know about."
        )
        is None
    )
    kept = match_sentence("SBOMs can be generated in either SPDX or CycloneDX format.")
    assert kept is not None and kept.pattern == "procedure"


def test_a_condition_on_the_apis_own_thing_needs_the_apis_name():
    """ "What happens once the future completes?" answered "Once the future completes, block_on returns
    ...", "What happens to value if the closure returns true?" answered "... produced by filter" (the Rust
    book, both readers: which API?): "the future" is block_on's, "the closure" filter's, so the question is
    asked only under that API's name, as a condition on an argument is."""
    from groundset.synthesizers.scenarios.facts import names_its_call

    # the chunks' key phrases, as the book's graph gives them
    topics = frozenset({"future completes", "closure returns", "target is"})
    closure = (
        "If the closure returns `true`, the value will be included in the iteration produced by `filter`."
    )
    (fact,) = facts_of(closure, topics=topics)
    assert not names_its_call(fact)
    future = "Once the future completes, `block_on` returns whatever value the future produced."
    assert not [f for f in facts_of(future, topics=topics) if names_its_call(f)]
    (own,) = facts_of("If the target is down, its samples are marked stale.", topics=topics)
    assert names_its_call(own)


def test_doing_so_is_no_answer():
    """ "What do you do when you have a reason to use unsafe code?" answered "..., you can do so" (the Rust
    book, both readers: circular): the main clause says the condition again. "You can do so by ..." says how.
    """
    assert (
        match_sentence("When you have a reason to use unsafe code, you can do so, and the annotation helps.")
        is None
    )
    kept = match_sentence("If you need a custom adapter, you can do so by subclassing BaseAdapter.")
    assert kept is not None and kept.pattern == "cause"


def test_a_choice_to_make_is_no_instruction():
    """ "I'm trying to change the data in a hash map. How do I do that?" answered "... you have to decide how
    to handle the case when a key already has a value" (the Rust book, 0 of 16 readings kept over two
    sessions): that there is a choice, not what to do."""
    assert (
        match_sentence(
            "When you want to change the data in a hash map, you have to decide how to handle the case when "
            "a key already has a value assigned."
        )
        is None
    )
    assert (
        match_sentence("To determine whether to use loops or iterators, you need to know which is faster.")
        is None
    )
    kept = match_sentence("To add a header, you need to pass a dict to the headers parameter.")
    assert kept is not None and kept.pattern == "procedure"


def test_a_definition_turned_round_and_an_abstract_head_ask_nothing():
    """ "What is preventing errors in concurrent programming?" answered "... is the advantage of thinking
    about ownership" (0 of 10 readings kept) and "What significance should a struct's name describe?" (0 of
    14), both from the Rust book: the first says what ownership gives, the second asks by a noun that stands
    for its "of" phrase. "What meaning must a metric name have?" (Prometheus, "a single meaning within a
    job") keeps its head."""
    from groundset.synthesizers.questions.templates import object_head

    turned = "Preventing errors in concurrent programming is the advantage of thinking about ownership."
    assert [f for f in facts_of(turned) if f.pattern == "definition"] == []
    assert object_head("the significance of the pieces of data being grouped together") == ""
    assert object_head("a single meaning within a job") == "meaning"


def test_a_key_phrase_that_runs_to_the_conditions_end_names_no_subject():
    """ "What happens if the event isn't recurring?" (the handbook), "OK and what happens if it matches"
    ("If the pattern matches, the associated block of code will be emitted", the Rust book's macros): "the
    X" points back to what the page set up, and a key phrase "pattern matches" is the condition itself, not
    a term that names it (0 of 11 readings kept). "the scrape interval is too short" names its term."""
    from groundset.synthesizers.scenarios.facts import _names_its_subject

    topics = frozenset({"pattern matches", "event isn’t recurring", "scrape interval"})
    assert (
        facts_of("If the pattern matches, the associated block of code will be emitted.", topics=topics) == []
    )
    assert not _names_its_subject("the event isn’t recurring", topics)
    assert _names_its_subject("the scrape interval is too short", topics)
