"""Persona names that read as a person's role: reads_as_role, the role vocabulary, offline names."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from groundset.core import CallEngine, run_sync
from groundset.kg import KnowledgeGraph, build_knowledge_graph
from groundset.personas import (
    Persona,
    PersonaPrompt,
    acluster_documents,
    apersonas_of,
    generate_personas,
    reads_as_role,
)
from groundset.personas.prompts import FALLBACK, offline_persona
from groundset.personas.roles import (
    FALLBACK_ROLE,
    NAME_ACTIVITY,
    ROLE_CUES,
    ROLE_NOUNS,
    activity,
    choose_role,
    object_phrase,
)

DOCS = {
    "writing-exporters.md": """# Writing exporters

An exporter translates metrics from a third-party system into the Prometheus format. When you
write an exporter for a database such as MySQL or PostgreSQL, use the official client library
of your language and expose one custom collector per subsystem.

## Example

```
# HELP mysql_up Whether the last scrape of MySQL succeeded.
# TYPE mysql_up gauge
mysql_up 1
```

## Collectors

A custom collector gathers all metrics at scrape time. The JMX exporter and the SNMP exporter
follow this pattern: each scrape queries the target system, and the collector builds fresh
metric families. Do not cache values between scrapes in a custom collector.
""",
    "client-libraries.md": """# Instrumenting with client libraries

Client libraries let you instrument your own services. The Go client library and the Java
client library both offer counters, gauges, histograms and summaries.

## Instrumentation

Instrument every public function of a library: count calls, errors and latency. Direct
instrumentation inside the service is better than an exporter when you own the code.

## Section 2

See `instrumentation.go` for a full example. The client library registers its default
collectors, such as the process collector and the Go runtime collector.
""",
    "alerting-rules.md": """# Alerting rules

Alerting rules define alert conditions in PromQL and send notifications to the Alertmanager.
The on-call engineer receives a page when an alert fires.

## Silences

A silence mutes alerts whose labels match its matchers for a fixed time. Create silences in
the Alertmanager web UI before planned maintenance to avoid paging the on-call rotation.
""",
    "recording-rules.md": """# Recording rules

Recording rules precompute expensive PromQL expressions and save the result as a new time
series. Alerting rules and dashboards can then query the recorded series cheaply. Rules live
in rule groups in a `rules.yml` file; each rule group has an evaluation interval.
""",
    "storage.md": """# Storage

The TSDB stores samples on local disk in two-hour blocks. Compaction merges blocks in the
background into larger blocks. Retention is set with the `--storage.tsdb.retention.time`
flag; the default keeps 15 days of data. For long-term storage, configure remote write in
`prometheus.yml` to send samples to a remote storage system such as Thanos or Cortex.
""",
    "security.md": """# Securing the web UI

Protect the Prometheus web UI and HTTP API with TLS and basic auth. Put the certificate file
and the key file in `web.yml` and start the server with `--web.config.file=web.yml`. Basic
auth users are listed with a bcrypt hash of each password.
""",
    "installing.md": """# Installing Prometheus

Download the binary for your platform, or run the official Docker image. On Kubernetes, the
Prometheus Operator deploys and configures Prometheus servers. The configuration file
`prometheus.yml` lists scrape targets and service discovery settings.
""",
}
# Never the topic of a persona: markup, file names, generic words.
GENERIC = {"data", "value", "file", "example", "section", "page", "heading", "body", "text", "type", "help"}
MARKUP = re.compile(r"[`_/<>=#{}\[\]]|\.(?:md|ya?ml|json|go)\b|\b(?:TYPE|HELP)\b")


@pytest.fixture(scope="module")
def kg(tmp_path_factory) -> KnowledgeGraph:
    folder = tmp_path_factory.mktemp("docs")
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return build_knowledge_graph(folder, engine=CallEngine(cache=False)).kg


# -- reads_as_role -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "SRE",
        "On-call SRE",
        "on-call engineers",
        "SREs running alerting",
        "Exporter developer",
        "Developer writing exporters for third-party systems",
        "Engineer instrumenting services with client libraries",
        "Operator running the Pushgateway for batch jobs",
        "Database administrator",
        "Sysadmin",
        "Admins of shared clusters",
        "Data scientists",
        "DevOps",
        "Team lead",
        "co-maintainer",
        "Technical writer",
        "Platform architect, payments",
        "Operator running Node Exporter (2)",  # the suffix unique_names adds
        "Prometheus users",
        "Developer interested in histograms",
    ],
)
def test_names_that_read_as_a_role(name):
    assert reads_as_role(name)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "Alice",
        "Classic histograms",
        "Legacy character",
        "Console templates",
        "Metric naming reader",  # "reader" alone says nothing about what the person does
        "Documentation reader",
        "User interface",  # a role noun as a modifier, not as the head
        "Owner references",
        "Lead time",
        "Admin guide",
        "Developer docs",
        "Someone",
        "Team",
        "engineering",
        "Operators-pattern",
    ],
)
def test_names_that_do_not_read_as_a_role(name):
    assert not reads_as_role(name)


def test_reads_as_role_takes_only_text():
    assert not reads_as_role(None)  # type: ignore[arg-type]
    assert not reads_as_role(3)  # type: ignore[arg-type]


# -- the role vocabulary -------------------------------------------------------------------------
def test_one_vocabulary_for_names_and_choices():
    for role in (*ROLE_CUES, *NAME_ACTIVITY, FALLBACK_ROLE):
        assert role.casefold() in ROLE_NOUNS and reads_as_role(role)
    for role in ROLE_CUES:
        ing, _ = activity(role, "anything", named=True)
        assert reads_as_role(f"{role} {ing} Grafana")


@pytest.mark.parametrize(
    ("texts", "role"),
    [
        (["writing exporters", "custom collector", "client libraries"], "Developer"),
        (["alerting rules", "on-call rotation", "silences"], "SRE"),
        (["storage", "retention", "deployment on Kubernetes"], "Operator"),
        (["basic auth", "TLS certificates", "password hashes"], "Administrator"),
        (["PromQL queries", "Grafana dashboards"], "Analyst"),
        (["Node Exporter"], "Operator"),  # the longer cue wins over "exporter"
        (["native histograms", "bucket boundaries"], FALLBACK_ROLE),  # no cue: the generic role
        ([], FALLBACK_ROLE),
    ],
)
def test_choose_role_follows_the_cue_words(texts, role):
    assert choose_role([(t, 1.0) for t in texts]) == role


def test_activities_and_objects_read_as_english():
    assert activity("Developer", "custom collector", named=False) == ("writing", "writes")
    assert activity("Operator", "storage", named=False) == ("configuring", "configures")
    assert activity("Operator", "Node Exporter", named=True) == ("running", "runs")
    assert activity("SRE", "alerting rules", named=False) == ("writing", "writes")
    assert activity("Engineer", "native histograms", named=False) == ("working with", "works with")
    assert object_phrase("custom collector", named=False) == "custom collectors"
    assert object_phrase("query", named=False) == "queries"
    assert object_phrase("storage", named=False) == "storage"
    assert object_phrase("HAProxy exporter", named=False) == "the HAProxy exporter"
    assert object_phrase("Node Exporter", named=True) == "Node Exporter"


# -- offline personas ----------------------------------------------------------------------------
def test_markup_file_names_and_generic_words_never_become_the_topic():
    junk = ["TYPE", "HELP", "_sum", "web.yml", "prometheus.yml", "data", "value", "Example", "section"]
    persona = offline_persona([*junk, "recording rules"], [], ["`code`", "https://x.io/a", "README.md"])
    assert persona.name == "SRE writing recording rules"
    assert not MARKUP.search(persona.name + persona.role_description)
    assert offline_persona(junk, []) == FALLBACK  # nothing usable: the plain reader
    fragments = ["exposing metrics", "Node Exporter exposes", "Alerting based on metrics", "you\u2019re"]
    assert offline_persona(fragments, []) == FALLBACK


def test_names_prefer_real_names_and_phrases_over_single_common_words():
    phrase = offline_persona(["groups", "blackbox exporter"], [], ["JMX"])
    assert phrase.name == "Developer writing blackbox exporters"  # not "... working with groups"
    # a single word that several phrases share is a topic of its own
    shared = offline_persona(["exporters", "blackbox exporter", "SNMP exporter"], [])
    assert shared.name == "Developer writing exporters"
    two = offline_persona(["Node Exporter", "service discovery"], [], ["HTTP", "Alertmanager"])
    assert two.name == "Operator running Node Exporter and Alertmanager"  # never "... and HTTP"
    assert "service discovery" in two.role_description


def test_offline_personas_of_a_small_graph_read_as_roles(kg):
    for n in (1, 2, 3, 4, 6):
        personas = generate_personas(kg, n)
        names = [p.name for p in personas]
        assert all(reads_as_role(name) for name in names), names
        by_name = {p.name: p for p in personas}
        assert all(by_name[p.name] == p for p in personas)  # one name, one reader
        assert not any(name.endswith(")") for name in names), names
        for persona in personas:
            topic = persona.name.split(" ", 1)[1]
            assert not MARKUP.search(topic), persona.name
            assert not {w.casefold().rstrip("s") for w in topic.split()} & GENERIC, persona.name
            assert persona.role_description.endswith(".") and persona.role_description.count(". ") == 0


def test_roles_fit_what_the_clusters_are_about(kg):
    """Where the pages name no readers, the role comes from what the cluster is about."""
    clusters = [replace(c, audience="") for c in run_sync(acluster_documents(kg, 4))]
    personas = [p for p, _ in run_sync(apersonas_of(clusters))]
    roles = {p.name.split(" ", 1)[0] for p in personas}
    assert len(roles) >= 3, personas  # not one role for everyone
    developer = [p for p in personas if p.name.startswith("Developer ")]
    assert developer and any(re.search(r"librar|collector|exporter", p.name) for p in developer)
    sre = [p for p in personas if p.name.startswith("SRE ")]
    assert sre and all(re.search(r"alert|rule|Alertmanager", p.name) for p in sre)


def test_offline_personas_are_deterministic(kg, tmp_path):
    first = generate_personas(kg, 4)
    assert generate_personas(kg, 4) == first
    reordered = KnowledgeGraph()
    for node in reversed(list(kg.graph.nodes)):
        reordered.graph.add_node(node, **kg.graph.nodes[node])
    for source, target, key, data in kg.edges():
        reordered.add_edge(
            source, target, key, **{k: v for k, v in data.items() if k not in ("kind", "symmetric")}
        )
    assert generate_personas(reordered, 4) == first
    kg.save(tmp_path / "kg")
    assert generate_personas(KnowledgeGraph.load(tmp_path / "kg"), 4) == first


def test_the_prompt_asks_the_model_for_role_names():
    instruction = PersonaPrompt.instruction
    assert "'<role> <doing what>'" in instruction and "personal name" in instruction
    for example in re.findall(r"'([A-Z][^']+)'", instruction):
        if example != "Native histograms":  # the counter-example
            assert reads_as_role(example), example
    assert not reads_as_role("Native histograms")
    for _, persona in PersonaPrompt.examples:
        assert isinstance(persona, Persona) and reads_as_role(persona.name)
