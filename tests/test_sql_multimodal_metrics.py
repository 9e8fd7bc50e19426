"""LLM SQL equivalence (normalisation, offline identity, the judge) and the multimodal judges (content blocks,
image files, symlinks, cache keys, offline NaN)."""

from __future__ import annotations

import base64
import json
import math
import struct
import zlib

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.scoring import EvaluationDataset, SingleTurnSample, evaluate
from groundset.scoring.metric import ScoringContext
from groundset.scoring.metrics import multimodal_content
from groundset.scoring.metrics.multimodal import MultiModalFaithfulness, MultiModalRelevance
from groundset.scoring.metrics.multimodal_content import context_part
from groundset.scoring.metrics.sql import LLMSQLEquivalence, normalise_sql

from .openai_stub import Reply

SCHEMA = "CREATE TABLE staff (id INT PRIMARY KEY, name TEXT, team_id INT);"
JUDGEMENT = {
    "response_explanation": "names of staff in team 3",
    "reference_explanation": "ids of staff in team 3",
    "reason": "one returns names, the other ids",
    "equivalent": False,
}


def png(red: int = 255) -> bytes:
    """A valid 1x1 RGB PNG (signature, IHDR, IDAT, IEND with their CRCs)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, 0, 0]))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


# -- SQL ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("select name from staff where team_id = 3;", "SELECT name\n  FROM staff\n WHERE team_id = 3"),
        ("SELECT a FROM t;; ", "select a from t"),
        ("select a from t limit 5", "SELECT a FROM t LIMIT 5"),
        ("SELECT a -- pick a\nFROM t", "select a -- pick a\n   from t"),
    ],
)
def test_normalisation_merges_layout_keyword_case_and_trailing_semicolons(a, b):
    assert normalise_sql(a) == normalise_sql(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("SELECT name FROM t WHERE x = 'Oslo'", "SELECT name FROM t WHERE x = 'oslo'"),  # literal case
        ("SELECT name FROM t WHERE x = 'a  b'", "SELECT name FROM t WHERE x = 'a b'"),  # literal spaces
        ('SELECT "Name" FROM t', 'SELECT "name" FROM t'),  # quoted identifiers
        ("SELECT name FROM Staff", "SELECT name FROM staff"),  # table names can be case-sensitive
        ("SELECT COUNT(*) FROM t", "SELECT COUNT (*) FROM t"),  # MySQL reads these differently
        ("SELECT a # note\nFROM t", "SELECT a # note FROM t"),  # the line end closes the comment
        ("SELECT a FROM t WHERE b <= 1", "SELECT a FROM t WHERE b < = 1"),
        ("SELECT $$a  b$$", "SELECT $$a b$$"),
        ("SELECT 'a\\'  b'", "SELECT 'a\\' b'"),  # a backslash: only trailing semicolons go
        ("SELECT limit FROM t", "SELECT LIMIT FROM t"),  # no number follows: maybe a name
        ("SELECT a FROM t", "SELECT b FROM t"),
    ],
)
def test_normalisation_never_merges_queries_that_may_differ(a, b):
    assert normalise_sql(a) != normalise_sql(b)


def sql_sample(
    response: str, reference: str = "SELECT id FROM staff WHERE team_id = 3", **extra
) -> SingleTurnSample:
    return SingleTurnSample(response=response, reference=reference, reference_contexts=[SCHEMA], **extra)


def test_sql_offline_is_identity_or_nan_never_zero():
    metric = LLMSQLEquivalence()
    assert metric.offline_summary().startswith("DIFFERENT measure: identity")
    same = metric.score(sql_sample("select id\nfrom staff where team_id = 3;"))
    assert same.value == 1.0 and "same after normalising" in same.reason
    other = metric.score(sql_sample("SELECT s.id FROM staff AS s WHERE s.team_id = 3"))
    assert (
        math.isnan(other.value) and other.reason == "offline: cannot judge equivalence of different queries"
    )
    empty = metric.score(sql_sample("  "))
    assert empty.value == 0.0
    no_reference = metric.score(sql_sample("SELECT 1", reference=" "))
    assert math.isnan(no_reference.value) and "reference query is empty" in no_reference.reason


def test_sql_judge_through_the_stub(stub, chat):
    stub.on_chat(lambda body: Reply.json(JUDGEMENT))
    reference = "SELECT id FROM staff WHERE team_id = 3"
    rows = [
        {"response": "SELECT name FROM staff WHERE team_id = 3", "reference": reference},
        {"response": "select id from staff where team_id = 3", "reference": reference},
    ]
    rows = [{**row, "reference_contexts": [SCHEMA]} for row in rows]
    result = evaluate(EvaluationDataset.from_list(rows), [LLMSQLEquivalence()], llm=chat, show_progress=False)
    assert result.scores("llm_sql_equivalence") == [0.0, 1.0]
    assert len(stub.chat_requests) == 1  # identical queries need no judge
    sent = json.loads(stub.chat_requests[0].body["messages"][-1]["content"].removeprefix("Input: "))
    assert sent == {
        "database_schema": SCHEMA,
        "response": rows[0]["response"],
        "reference": rows[0]["reference"],
    }
    cell = result.cells[0]["llm_sql_equivalence"]
    assert cell.trace["response_explanation"] == "names of staff in team 3"
    assert cell.trace["reference_explanation"] == "ids of staff in team 3"
    assert cell.trace["reason"] == JUDGEMENT["reason"] and cell.reason.startswith("not equivalent")


def test_sql_strictness_takes_the_majority_and_works_without_a_schema():
    votes = [
        JUDGEMENT,
        {**JUDGEMENT, "equivalent": True, "reason": "same rows"},
        {**JUDGEMENT, "equivalent": True},
    ]
    model = FakeListChatModel(responses=[json.dumps(v) for v in votes])
    sample = SingleTurnSample(response="SELECT name FROM staff", reference="SELECT staff.name FROM staff")
    result = LLMSQLEquivalence(llm=model, strictness=3).score(sample)
    assert result.value == 1.0 and result.trace["agreement"] == pytest.approx(2 / 3)
    assert result.trace["reason"] == "same rows" and result.trace["schema"] == "none given"


# -- multimodal content ------------------------------------------------------------------------------


def test_contexts_are_classified_and_files_sent_as_data_urls(tmp_path, monkeypatch):
    image = tmp_path / "chart.png"
    image.write_bytes(png())
    part = context_part(str(image))
    assert part.kind == "image" and part.url == "data:image/png;base64," + base64.b64encode(png()).decode()
    assert "url" not in part.model_dump()  # the cache key sees the hash, not the bytes
    assert len(part.sha256) == 64
    url = "https://example.org/figures/plot.PNG?size=2"
    assert context_part(url).url == url and context_part(url).kind == "image"
    assert context_part("https://example.org/docs/page.html").kind == "text"
    assert context_part("See the chart in figure 2.png").kind == "text"  # a sentence, no such file
    data_url = "data:image/png;base64," + base64.b64encode(png()).decode()
    assert context_part(data_url).sha256 == part.sha256
    monkeypatch.chdir(tmp_path)
    assert context_part("chart.png").sha256 == part.sha256  # relative to the working directory


def test_broken_image_references_are_errors_that_name_the_context(tmp_path, monkeypatch):
    (tmp_path / "fake.png").write_text("not an image")
    with pytest.raises(ValueError, match=r"retrieved context 3 .*fake.png.* is not a PNG, JPEG, GIF or WebP"):
        context_part(str(tmp_path / "fake.png"), 3)
    with pytest.raises(ValueError, match="does not exist"):
        context_part(str(tmp_path / "missing.jpg"))
    with pytest.raises(ValueError, match="base64 payload does not decode"):
        context_part("data:image/png;base64,@@@")
    (tmp_path / "big.png").write_bytes(png() + b"\0" * 100)
    monkeypatch.setattr(multimodal_content, "MAX_IMAGE_BYTES", 50)
    with pytest.raises(ValueError, match="over the 50-byte limit"):
        context_part(str(tmp_path / "big.png"))
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(ValueError, match="not a regular file"):
        context_part(str(tmp_path / "dir.png"))


# -- multimodal judges ---------------------------------------------------------------------------------


def visual_sample(*contexts: str, response: str = "The chart shows sales doubling.") -> SingleTurnSample:
    return SingleTurnSample(
        user_input="What does the chart show?", response=response, retrieved_contexts=list(contexts)
    )


def test_request_carries_text_blocks_data_url_images_and_http_urls_unchanged(stub, chat, tmp_path):
    image = tmp_path / "sales.png"
    image.write_bytes(png())
    url = "https://example.org/img/sales.jpg"
    stub.on_chat(lambda body: Reply.json({"reason": "context 2 shows it", "verdict": True}))
    row = {
        "user_input": "What does the chart show?",
        "response": "The chart shows sales doubling.",
        "retrieved_contexts": ["Sales figures for 2024.", str(image), url],
    }
    metrics = [MultiModalFaithfulness()]
    result = evaluate(EvaluationDataset.from_list([row]), metrics, llm=chat, show_progress=False)
    assert result.scores("multimodal_faithfulness") == [1.0]
    (request,) = stub.chat_requests
    content = request.body["messages"][-1]["content"]
    assert isinstance(content, list) and content[0]["type"] == "text"
    assert json.loads(content[0]["text"].split("\n")[0].removeprefix("Input: ")) == {
        "response": "The chart shows sales doubling."
    }
    assert {"type": "text", "text": "Context 1 (text):\nSales figures for 2024."} in content
    images = [b["image_url"]["url"] for b in content if b["type"] == "image_url"]
    assert images == ["data:image/png;base64," + base64.b64encode(png()).decode(), url]
    cell = result.cells[0]["multimodal_faithfulness"]
    assert cell.trace["contexts"][0] == "text" and cell.trace["contexts"][2] == f"image: {url}"
    assert "2 image(s), 1 text(s)" in cell.reason


def test_a_symlinked_image_is_refused_with_an_error_on_the_row(stub, chat, tmp_path):
    real = tmp_path / "real.png"
    real.write_bytes(png())
    link = tmp_path / "link.png"
    link.symlink_to(real)
    rows = [{"response": "It is red.", "retrieved_contexts": [str(link)]}]
    result = evaluate(
        EvaluationDataset.from_list(rows), [MultiModalFaithfulness()], llm=chat, show_progress=False
    )
    cell = result.cells[0]["multimodal_faithfulness"]
    assert math.isnan(cell.value) and "symbolic link" in cell.error and "link.png" in cell.error
    assert stub.chat_requests == []


async def test_the_cache_key_follows_the_image_bytes(stub, chat, engine, tmp_path):
    image = tmp_path / "photo.png"
    stub.on_chat(lambda body: Reply.json({"reason": "shown", "verdict": True}))
    ctx = ScoringContext(chat, None, engine)
    metric = MultiModalFaithfulness()
    image.write_bytes(png(255))
    await metric.ascore(visual_sample(str(image)), ctx)
    await metric.ascore(visual_sample(str(image)), ctx)
    assert len(stub.chat_requests) == 1  # same bytes: answered from the cache
    image.write_bytes(png(0))  # same path, other picture
    await metric.ascore(visual_sample(str(image)), ctx)
    assert len(stub.chat_requests) == 2


def test_relevance_sends_the_question_and_maps_the_verdict(stub, chat):
    stub.on_chat(lambda body: Reply.json({"reason": "it answers another question", "verdict": False}))
    result = MultiModalRelevance(llm=chat).score(visual_sample("Quarterly sales rose from 10 to 20."))
    assert result.value == 0.0 and result.trace["reason"] == "it answers another question"
    lead = stub.chat_requests[0].body["messages"][-1]["content"][0]["text"]
    assert json.loads(lead.split("\n")[0].removeprefix("Input: "))["question"] == "What does the chart show?"


def test_multimodal_edge_cases_without_a_call():
    no_calls = FakeListChatModel(responses=[])
    faithful = MultiModalFaithfulness(llm=no_calls)
    assert math.isnan(faithful.score(visual_sample("text", response=" ")).value)
    assert faithful.score(visual_sample()).value == 0.0
    relevant = MultiModalRelevance(llm=no_calls)
    assert math.isnan(relevant.score(visual_sample()).value)
    assert relevant.score(visual_sample("text", response="")).value == 0.0
    no_question = visual_sample("text").model_copy(update={"user_input": " "})
    assert math.isnan(relevant.score(no_question).value)


@pytest.mark.parametrize("metric", [MultiModalFaithfulness, MultiModalRelevance])
def test_multimodal_offline_is_nan_with_the_reason(metric, tmp_path):
    assert metric.offline_summary() == "NaN (needs an LLM)"
    result = metric().score(visual_sample("Sales figures.", str(tmp_path / "never-read.png")))
    assert math.isnan(result.value) and result.reason == "offline: multimodal judging needs a vision LLM"
