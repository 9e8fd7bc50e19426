"""Personas: clustering the graph, offline and stubbed generation, files, merging."""

from __future__ import annotations

import asyncio
import json
import re

import numpy as np
import pytest
from pydantic import ValidationError

from groundset.core import CallEngine, ConfigError, run_sync
from groundset.kg import KnowledgeGraph, NodeKind, build_knowledge_graph
from groundset.personas import (
    Persona,
    PersonaInput,
    PersonaPrompt,
    acluster_documents,
    agenerate_personas,
    generate_personas,
    load_personas,
    merge_personas,
    reads_as_role,
    save_personas,
)
from groundset.personas.audience import AUDIENCE, audience_name
from groundset.personas.generate import distinctive_terms, dominant_themes, unique_names
from groundset.personas.prompts import FALLBACK, offline_persona
from groundset.personas.roles import singular

from .corpora import PROMETHEUS_DOCS
from .openai_stub import Reply

PAGES = [
    "concepts/*.md",
    "practices/histograms.md",
    "practices/naming.md",
    "practices/alerting.md",
    "guides/tls-encryption.md",
    "guides/basic-auth.md",
    "specs/native_histograms.md",
    "introduction/overview.md",
]
SHORT_DOCS = {
    "tls.md": "# TLS\nEnable TLS on the web server with a certificate file and a key file in web.yml.",
    "auth.md": "# Basic auth\nProtect the web UI with basic auth: store a bcrypt hash of each password.",
    "retention.md": "# Retention\nThe TSDB keeps blocks 15 days; --storage.tsdb.retention.time changes it.",
    "compaction.md": "# Compaction\nThe TSDB compacts two-hour blocks into larger blocks in the background.",
    "alerts.md": "# Alerts\nAlertmanager groups alerts by label and routes each group to a receiver.",
    "silences.md": "# Silences\nA silence mutes alerts whose labels match its matchers for a fixed time.",
}


@pytest.fixture(scope="module")
def kg() -> KnowledgeGraph:
    return build_knowledge_graph(PROMETHEUS_DOCS, include=PAGES, engine=CallEngine(cache=False)).kg


def summarised(kg: KnowledgeGraph) -> list[str]:
    return [d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d).get("summary")]


def clusters_of(kg: KnowledgeGraph, n: int, **kwargs):
    return run_sync(acluster_documents(kg, n, **kwargs))


# -- offline generation ------------------------------------------------------------------
def test_offline_personas_one_per_cluster_and_one_name_per_reader(kg):
    docs = summarised(kg)
    assert len(docs) >= 8
    for n in (1, 3, 4):
        personas = generate_personas(kg, n)
        assert len(personas) == n
        by_name = {p.name.casefold(): p for p in personas}
        assert all(by_name[p.name.casefold()] == p for p in personas)  # a repeated name is the same reader
        assert all(isinstance(p, Persona) and p.role_description.endswith(".") for p in personas)
    assert len(generate_personas(kg, 50)) == len(docs)  # never more personas than documents


def test_clusters_partition_the_documents_in_a_fixed_order(kg):
    clusters = clusters_of(kg, 4)
    members = [doc for c in clusters for doc in c.ids]
    assert sorted(members) == sorted(summarised(kg))
    sizes = [len(c.ids) for c in clusters]
    assert sizes == sorted(sizes, reverse=True)
    for c in clusters:
        summaries = [kg.get(d)["summary"] for d in c.ids]
        assert 1 <= len(c.summaries) <= 3 and set(c.summaries) <= set(summaries)
        assert c.summaries[0] == summaries[0]  # the most central member comes first


def synthetic(groups: dict[str, list[tuple[str, list[float]]]]) -> KnowledgeGraph:
    """Documents with hand-made summary vectors: group name -> [(node id, vector)]."""
    kg = KnowledgeGraph()
    for theme, members in groups.items():
        for node, vector in members:
            kg.add_node(
                node,
                NodeKind.DOCUMENT,
                text=f"About {theme}.",
                summary=f"{node} is about {theme}.",
                themes=[theme, f"{node} detail"],
                summary_embedding=np.asarray(vector, dtype=np.float32),
            )
    return kg


def test_clusters_by_size_then_first_id_with_central_members_first():
    kg = synthetic(
        {
            "alpha": [("doc-0", [1, 0, 0, 0]), ("doc-a2", [0.7, 0.3, 0, 0])],
            "beta": [("doc-b1", [0, 1, 0, 0]), ("doc-b2", [0, 0.9, 0.1, 0])],
            "gamma": [("doc-z1", [0, 0, 1, 0.2]), ("doc-z2", [0, 0, 1, 0]), ("doc-z3", [0, 0, 1, -0.2])],
        }
    )
    clusters = clusters_of(kg, 3)
    assert [c.ids for c in clusters] == [
        ("doc-z2", "doc-z1", "doc-z3"),  # biggest first; its most central member first
        ("doc-0", "doc-a2"),  # equal size: the cluster with the smaller id first
        ("doc-b1", "doc-b2"),
    ]
    assert [c.themes[0] for c in clusters] == ["gamma", "alpha", "beta"]
    assert clusters[0].summaries[0] == "doc-z2 is about gamma."
    sizes = [len(c.ids) for c in clusters_of(kg, 2)]
    assert len(sizes) == 2 and sum(sizes) == 7 and sizes[0] >= sizes[1]
    same = synthetic({"same": [(f"doc-{i}", [1, 1, 0, 0]) for i in range(3)]})
    assert [len(c.ids) for c in clusters_of(same, 3)] == [3]  # identical vectors: one cluster, no crash


def stems(text: str) -> list[str]:
    return [singular(w) for w in text.casefold().replace(",", " ").split()]


def test_offline_personas_are_the_readers_the_pages_name(kg):
    """Named by the role the cluster's pages use for their readers and the corpus's product, never a
    concatenation of extracted terms."""
    clusters, personas = clusters_of(kg, 4), generate_personas(kg, 4)
    for cluster, persona in zip(clusters, personas, strict=True):
        member_themes = {t.casefold() for d in cluster.ids for t in kg.get(d)["themes"]}
        assert cluster.themes and {t.casefold() for t in cluster.themes} <= member_themes
        chunks = [kg.get(c) for d in cluster.ids for c in kg.chunks_of(d)]
        assert cluster.entities and set(cluster.entities) <= {e for c in chunks for e in c["entities"]}
        assert cluster.keyphrases and set(cluster.keyphrases) <= {k for c in chunks for k in c["keyphrases"]}
        assert cluster.scope == "Prometheus" and cluster.audience in AUDIENCE.values()
        assert persona.name == audience_name(cluster.audience, "Prometheus"), persona.name
        assert reads_as_role(persona.name) and len(persona.name.split()) <= 4
        assert not {t.casefold() for t in (*cluster.entities, *cluster.keyphrases)} & {
            persona.name.casefold()
        }
    assert len({c.audience for c in clusters}) >= 2  # clusters take distinct roles while the pages name some


def in_words(topic: str, text: str) -> bool:
    """``topic``'s words in a row in ``text``, singular or plural."""
    want, words = stems(topic), stems(text.rstrip("."))
    return any(words[i : i + len(want)] == want for i in range(len(words) - len(want) + 1))


def test_cluster_entities_are_distinctive_names_without_markup(kg):
    everywhere = {"prometheus"}  # the corpus's own name is on nearly every page: it sets nobody apart
    for cluster in clusters_of(kg, 4):
        assert not everywhere & {e.casefold() for e in cluster.entities}
        assert not [e for e in cluster.entities if e in ("TYPE", "HELP") or e.startswith("_")]


def test_generation_is_deterministic_and_independent_of_insertion_order(kg, tmp_path):
    first = generate_personas(kg, 4)
    assert generate_personas(kg, 4) == first
    reordered = KnowledgeGraph()
    for node in reversed(list(kg.graph.nodes)):
        reordered.graph.add_node(node, **kg.graph.nodes[node])
    for source, target, key, data in reversed(list(kg.edges())):
        reordered.add_edge(
            source, target, key, **{k: v for k, v in data.items() if k not in ("kind", "symmetric")}
        )
    assert generate_personas(reordered, 4) == first
    kg.save(tmp_path / "kg")
    assert generate_personas(KnowledgeGraph.load(tmp_path / "kg"), 4) == first


def test_short_documents_without_summaries_cluster_their_chunks(tmp_path):
    for name, text in SHORT_DOCS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    kg = build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg
    assert not summarised(kg) and len(kg.nodes(NodeKind.CHUNK)) == len(SHORT_DOCS)
    clusters = clusters_of(kg, 3)
    assert sorted(i for c in clusters for i in c.ids) == sorted(kg.nodes(NodeKind.CHUNK))
    chunk_texts = {" ".join(kg.get(c)["text"].split()) for c in kg.nodes(NodeKind.CHUNK)}
    assert all(s in chunk_texts for c in clusters for s in c.summaries)  # whitespace folded
    personas = generate_personas(kg, 3)
    assert len(personas) == 3 and len({p.name for p in personas}) == 3
    for cluster, persona in zip(clusters, personas, strict=True):
        assert reads_as_role(persona.name), persona.name
        topics = (*cluster.themes, *cluster.entities, *cluster.keyphrases)
        assert any(in_words(t, persona.role_description) for t in topics), persona


def test_one_document_gives_one_persona_and_an_empty_graph_none():
    kg = build_knowledge_graph(
        PROMETHEUS_DOCS, include=["practices/naming.md"], engine=CallEngine(cache=False)
    ).kg
    assert len(kg.nodes(NodeKind.DOCUMENT)) == 1
    (persona,) = generate_personas(kg, 4)
    assert persona.name and persona.role_description
    assert generate_personas(KnowledgeGraph(), 4) == []


def test_async_form_and_bad_n(kg):
    assert asyncio.run(agenerate_personas(kg, 2)) == generate_personas(kg, 2)
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="n must be an int"):
            generate_personas(kg, bad)


def test_offline_persona_without_themes_does_not_crash():
    persona = offline_persona([], ["The Node Exporter exposes hardware metrics of Linux hosts."])
    assert persona.name == "Operator running Node Exporter"  # "Node Exporter" outweighs "exporter"
    assert "Node Exporter" in persona.role_description
    assert offline_persona(["  ", "--", "42"], []) == FALLBACK
    assert offline_persona([], ["It is what it is."]) == FALLBACK
    assert reads_as_role(FALLBACK.name)
    assert offline_persona([], ["", "This page specifies escaping schemes for names."]).name == (
        "Developer working with escaping schemes"
    )
    # a six-word theme is a sentence fragment, not a topic
    assert offline_persona(["remote write queue shard tuning parameters explained"], []) == FALLBACK
    role = offline_persona(["exporter developers"], [])
    assert role.name == "Exporter developers"  # a theme that names the readers is their name
    cased = offline_persona(["TLS certificates", "cAdvisor"], [])
    assert cased.name == "Administrator configuring TLS certificates"
    assert offline_persona(["cAdvisor"], []).name == "Engineer working with cAdvisor"  # no cue: generic role


def test_the_prompt_runs_offline_and_describes_itself():
    prompt = PersonaPrompt()
    data = PersonaInput(
        summaries=["Native histograms have exponential buckets."], themes=["native histograms"]
    )
    persona = prompt.run_sync("offline", data)
    assert persona == offline_persona(data.themes, data.summaries)
    assert persona.name == "Engineer working with native histograms" and reads_as_role(persona.name)
    example = PersonaPrompt.examples[0][1].name
    assert reads_as_role(example) and not example.endswith(
        ("developer", "Developer")
    )  # "<role> <doing what>"
    assert "personas.generate" in prompt.describe() and example in prompt.describe()
    assert "'<role> <doing what>'" in prompt.instruction


def test_dominant_themes_prefer_shared_then_distinctive_themes():
    clusters = [
        [("batch jobs", "pushgateway"), ("Pushgateway", "batch jobs"), ("grouping",)],
        [("batch jobs", "alerts"), ("alerts", "silences")],
    ]
    first, second = dominant_themes(clusters)
    assert first[:2] == ["Pushgateway", "batch jobs"]  # as frequent, but batch jobs is everywhere
    assert second[0] == "alerts" and "batch jobs" in second
    assert dominant_themes([[()]]) == [[]]


def test_distinctive_terms_prefer_names_of_a_few_members_over_names_of_all():
    clusters = [
        [("Prometheus", "Prometheus", "Grafana"), ("Prometheus", "Grafana", "PromQL")],
        [("Prometheus", "Alertmanager"), ("Prometheus", "Alertmanager", "PromQL"), ("Prometheus",)],
    ]
    first, second = distinctive_terms(clusters)
    assert first[0] == "Grafana" and second[0] == "Alertmanager"
    assert first[-1] == "Prometheus" and second[-1] == "Prometheus"  # on every page: last
    assert distinctive_terms([[("a",)]], limit=0) == [[]] and distinctive_terms([[()]]) == [[]]


def test_unique_names_suffix_repeats_case_insensitively():
    given = [Persona(name=n, role_description=d) for n, d in (("A", "x"), ("a", "x"), ("A", "y"), ("A", "x"))]
    names = [p.name for p in unique_names(given)]
    assert names == ["A", "a (2)", "A (3)", "A"]  # the same persona again (one reader, two clusters) stays


# -- through the stub server ---------------------------------------------------------------
def test_one_chat_request_per_cluster_and_answers_come_from_the_model(kg, chat, engine, stub, tmp_path):
    clusters = clusters_of(kg, 3)
    asked: list[dict] = []

    def answer(body):
        user = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        asked.append(user)
        return Reply.json(
            {"name": f"Reader of {user['themes'][0]}", "role_description": "Reads the pages about it."}
        )

    stub.on_chat(answer)
    personas = generate_personas(kg, 3, llm=chat, engine=engine)
    assert len(stub.chat_requests) == len(clusters) == 3
    assert [p.name for p in personas] == [f"Reader of {c.themes[0]}" for c in clusters]
    assert sorted(tuple(a["summaries"]) for a in asked) == sorted(c.summaries for c in clusters)
    system = stub.chat_requests[0].body["messages"][0]["content"]
    assert PersonaPrompt.instruction.split("\n")[0] in system and PersonaPrompt.examples[0][1].name in system
    assert engine.usage["personas.generate"].calls == 3

    assert generate_personas(kg, 3, llm=chat, engine=engine) == personas
    assert generate_personas(kg, 3, llm=chat, engine=CallEngine(cache=tmp_path / "cache")) == personas
    assert len(stub.chat_requests) == 3  # both reruns were served from the cache


def test_model_names_that_collide_are_made_unique(kg, chat, engine, stub):
    count = iter(range(100))
    stub.on_chat(
        lambda body: Reply.json({"name": "  SRE ", "role_description": f"Keeps shard {next(count)} up."})
    )
    personas = generate_personas(kg, 3, llm=chat, engine=engine)
    assert [p.name for p in personas] == ["SRE", "SRE (2)", "SRE (3)"]


def test_summaries_without_stored_vectors_are_embedded_once(kg, chat, openai_embeddings, engine, stub):
    bare = kg.subgraph(kg.nodes())
    for doc in bare.nodes(NodeKind.DOCUMENT):
        bare.get(doc).pop("summary_embedding", None)
    clusters = clusters_of(bare, 3, embeddings=openai_embeddings, engine=engine)
    assert len(clusters) == 3 and len(stub.embedding_requests) == 1
    assert engine.usage["personas.embed"].calls == 1
    sent = stub.embedding_requests[0].body["input"]
    assert len(sent) == len(summarised(bare))


# -- the model and files -------------------------------------------------------------------
def test_persona_model_validates():
    persona = Persona(name="  On-call\n SRE ", role_description=" Answers pages. ")
    assert persona.name == "On-call SRE" and persona.role_description == "Answers pages."
    with pytest.raises(ValidationError):
        Persona(name="   ", role_description="x")
    with pytest.raises(ValidationError):
        Persona(name="x", role_description="")
    with pytest.raises(ValidationError):
        persona.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".yml"])
def test_save_and_load_round_trip(tmp_path, suffix):
    personas = [
        Persona(name="On-call SRE", role_description="Answers pages: needs alert routing details."),
        Persona(name="Développeur d'exporteurs", role_description="Écrit des exporteurs « maison »."),
    ]
    path = tmp_path / "sub" / f"personas{suffix}"
    save_personas(personas, path)
    assert load_personas(path) == personas
    save_personas(personas[:1], path)  # overwrite in place, no temp files left behind
    assert load_personas(path) == personas[:1]
    assert [p.name for p in (tmp_path / "sub").iterdir()] == [path.name]


def test_load_accepts_a_personas_mapping(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("personas:\n  - name: SRE\n    role_description: Runs it.\n", encoding="utf-8")
    assert load_personas(path) == [Persona(name="SRE", role_description="Runs it.")]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("p.json", '[{"name": "a", "role_description": "b"},\n {"name": }]', r"not valid JSON: .*line 2"),
        ("p.yaml", "- name: a\n  role_description: [b\n- x", r"not valid YAML: .*line \d+"),
        (
            "p.yaml",
            "- {name: a, role_description: b}\n- {name: c, role_description: d}\n- {name: e}\n",
            r"entry 3: role_description is required",
        ),
        ("p.json", '[{"name": "a", "role": "b"}]', r"entry 1: role_description is required \(found: role\)"),
        ("p.json", '[{"name": "", "role_description": "b"}]', r"entry 1: name must not be empty"),
        ("p.json", '[{"name": 3, "role_description": "b"}]', r"entry 1: name must be text, got a number"),
        (
            "p.json",
            '[{"name": "a", "role_description": "b", "age": 3}]',
            r"entry 1: unknown field 'age' \(allowed: name, role_description\)",
        ),
        (
            "p.json",
            '[{"name": "SRE", "role_description": "b"}, {"name": "sre", "role_description": "c"}]',
            r"entry 2: name 'sre' is already used by entry 1",
        ),
        ("p.json", '["SRE"]', r"entry 1: expected a mapping with name and role_description, got text"),
        ("p.json", '{"people": []}', r"mapping with a 'personas' list; found a mapping with keys: people"),
        ("p.json", '"SRE"', r"expected a list of \{name, role_description\} entries, got text"),
        ("p.yaml", "", r"is empty"),
        ("p.toml", "", r"unknown extension '.toml'; use .json, .yaml or .yml"),
    ],
)
def test_bad_personas_files_name_the_file_and_the_problem(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        load_personas(path)
    assert str(path) in str(info.value)


def test_missing_unreadable_and_unknown_paths(tmp_path):
    with pytest.raises(ConfigError, match=re.escape(f"{tmp_path / 'nope.yaml'} does not exist")):
        load_personas(tmp_path / "nope.yaml")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(ConfigError, match="is a directory"):
        load_personas(tmp_path / "dir.json")
    (tmp_path / "latin.json").write_bytes(b'[{"name": "caf\xe9"}]')
    with pytest.raises(ConfigError, match="is not UTF-8"):
        load_personas(tmp_path / "latin.json")
    with pytest.raises(ConfigError, match="unknown extension"):
        save_personas([], tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()


def test_many_bad_entries_are_reported_together(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"name": f"n{i}"} for i in range(12)]), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_personas(path)
    text = str(info.value)
    assert "entry 1:" in text and "entry 10:" in text and "entry 11:" not in text and "2 more" in text


def test_merge_puts_user_personas_first_and_overrides_by_name():
    generated = [
        Persona(name=n, role_description="generated") for n in ("SRE", "Exporter developer", "Analyst")
    ]
    user = [Persona(name="sre", role_description="mine"), Persona(name="Auditor", role_description="mine")]
    merged = merge_personas(generated, user)
    assert [p.name for p in merged] == ["sre", "Auditor", "Exporter developer", "Analyst"]
    assert [p.role_description for p in merged[:2]] == ["mine", "mine"]
    assert merge_personas(generated, []) == generated and merge_personas([], user) == user
