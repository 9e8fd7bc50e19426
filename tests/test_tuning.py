"""Tuning a judge with the user's labels: a seeded split, demonstrations from the training part, and
held-out agreement before and after (the guidance must reach the LLM judge)."""

from __future__ import annotations

import json

import pytest

from groundset.cli import main
from groundset.core import CallEngine
from groundset.scoring import Faithfulness
from groundset.scoring.calibration import load_labels
from groundset.scoring.demonstrations import GUIDANCE_HEADER
from groundset.scoring.tuning import before_after, demonstrations_from, split_labels

from .openai_stub import Reply
from .verdicts import for_keys, judged_keys

CONTEXT = ["The node exporter listens on port 9100."]


def sample(response: str) -> dict:
    return {"user_input": "Which port?", "response": response, "retrieved_contexts": CONTEXT}


def labels_file(tmp_path, n_pairs: int = 8, n_scored: int = 4):
    rows = [{**sample(f"Scored answer {i} about port 9100."), "human_score": 2 * i} for i in range(n_scored)]
    rows += [
        {"id": f"p{i}", "better": sample(f"Port 9100, case {i}."), "worse": sample(f"Port 8080, case {i}.")}
        for i in range(n_pairs)
    ]
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_the_split_is_seeded_disjoint_and_keeps_both_parts(tmp_path):
    labels = load_labels(labels_file(tmp_path))
    train, held = split_labels(labels, 0.5, seed=3)
    again_train, again_held = split_labels(labels, 0.5, seed=3)
    assert [p.id for p in held.pairs] == [p.id for p in again_held.pairs]
    assert {p.id for p in train.pairs}.isdisjoint(p.id for p in held.pairs)
    assert len(train) + len(held) == len(labels) and len(train.pairs) == len(held.pairs) == 4
    assert len(held.samples) == 2 and held.locations[0].startswith(str(tmp_path))
    with pytest.raises(ValueError, match="holdout"):
        split_labels(labels, 1.0)


def test_demonstrations_map_scores_to_0_1_and_pairs_to_1_and_0(tmp_path):
    demos = demonstrations_from(load_labels(labels_file(tmp_path, n_pairs=1, n_scored=3)))
    assert [d.score for d in demos] == [0.0, 0.5, 1.0, 1.0, 0.0]
    assert demos[3].sample.response.startswith("Port 9100") and demos[4].sample.response.startswith(
        "Port 8080"
    )


def test_held_out_agreement_before_and_after_guidance(stub, chat, tmp_path):
    """A scripted judge that tells the answers apart only when it is shown people's judgements: the
    before/after figures must show the guidance reached it."""

    def judge(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "atomicity" in data:
            return Reply.json({"response": [data["response"]], "reference": []})
        guided = GUIDANCE_HEADER in body["messages"][0]["content"]
        statement = " ".join(data.get("statements", {}).values())
        return Reply.json(for_keys(judged_keys(data), not guided or "9100" in statement))

    stub.on_chat(judge)
    found = before_after(
        load_labels(labels_file(tmp_path)),
        Faithfulness,
        k=2,
        llm=chat,
        embeddings="offline",
        engine=CallEngine(cache=False),
        show_progress=False,
    )
    assert found.held_out == 6 and found.demonstrations == 2 + 4 * 2
    assert found.before.preference_accuracy.value == 0.5  # every held-out pair tied
    assert found.after.preference_accuracy.value == 1.0


def test_the_cli_reports_before_and_after(tmp_path, capsys):
    path = labels_file(tmp_path)
    assert main(["calibrate", str(path), "--metric", "faithfulness", "--demonstrations", "2", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "ignore demonstrations" in printed  # offline: said plainly
    assert "before (no demonstrations):" in printed and "after:" in printed
    assert "held-out items" in printed
