"""`generate --estimate`: a dry run through the real pipeline that calls no model, reads the cache without
writing it, and predicts the calls a real run then makes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

import groundset.kg
import groundset.personas
import groundset.scoring
import groundset.synthesizers  # noqa: F401 - imported for their prompts
from groundset.core import CallEngine, ConfigError, track
from groundset.core.estimate import Estimate, EstimatingEngine, format_estimate
from groundset.core.models import model_identity
from groundset.core.prompts import list_prompts
from groundset.core.schema_fill import fill_schema, text_tokens
from groundset.core.structured import Method
from groundset.core.usage import DEFAULT_PRICES, Usage, price_of
from groundset.judges.aligned import KeyedVerdicts, keyed
from groundset.judges.sample_check import SampleCheckPrompt, SampleToCheck
from groundset.kg import build_knowledge_graph
from groundset.kg.facts_batch import KeyedFacts, keyed_facts
from groundset.synthesizers import TestsetGenerator
from groundset.synthesizers.pipeline.estimate import estimate_generation

from .corpora import EXAMPLE_DOCS
from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage
from .scripted_model import scripted


def _counted(body: dict[str, Any]) -> Reply | None:
    """The scripted model's answer, with tokens counted as characters / 4 (as mockllm counts them)."""
    reply = scripted(body)
    if reply is None or reply.content is None:
        return reply
    prompt = sum(len(m.get("content") or "") for m in body["messages"])
    return dataclasses.replace(reply, usage=(text_tokens("x" * prompt), text_tokens(reply.content)))


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_estimate_calls_nothing_predicts_a_real_run_and_leaves_the_cache_alone(
    stub, chat, openai_embeddings, tmp_path
):
    stub.on_chat(_counted)  # a model that writes good drafts: every verdict passes
    cache = tmp_path / "cache"
    options = {"llm": chat, "embeddings": openai_embeddings, "cache": cache, "good_rate": 1.0}
    estimate = estimate_generation(EXAMPLE_DOCS, 6, **options)
    assert stub.requests == []
    assert not cache.exists()  # an estimate creates no cache either
    assert estimate.chat_calls > 10 and estimate.embedding_requests > 0 and estimate.cache_hits == 0

    engine = CallEngine(cache=cache)
    with track() as usage:
        kg = build_knowledge_graph(EXAMPLE_DOCS, llm=chat, embeddings=openai_embeddings, engine=engine).kg
        TestsetGenerator(chat, openai_embeddings, engine=engine).generate(kg, 6)
    measured = Estimate.from_usage(usage, llm=chat, embeddings=openai_embeddings)
    assert measured.chat_calls == len(stub.chat_requests)
    assert measured.embedding_requests == len(stub.embedding_requests)
    assert abs(estimate.chat_calls - measured.chat_calls) <= 0.25 * measured.chat_calls, estimate.versus(
        measured
    )
    assert abs(estimate.input_tokens - measured.input_tokens) <= 0.25 * measured.input_tokens
    assert "estimate vs measured: chat calls" in estimate.versus(measured)

    sent = len(stub.requests)
    engine.cache.flush()  # the writer thread has stored every answer of the real run
    live = _snapshot(cache)  # the real engine still has the file open: its answers are in the WAL
    again = estimate_generation(EXAMPLE_DOCS, 6, **options)
    assert len(stub.requests) == sent
    assert again.chat_calls <= 1 and again.cache_hits >= measured.chat_calls - 1
    assert again.embedding_requests == 0
    after = _snapshot(cache)
    assert {k: v for k, v in after.items() if not k.endswith("-shm")} == {
        k: v for k, v in live.items() if not k.endswith("-shm")
    }

    engine.cache.close()  # as after the real run's process ended
    before = _snapshot(cache)
    closed = estimate_generation(EXAMPLE_DOCS, 6, **options)
    assert _snapshot(cache) == before  # byte for byte, no side file added
    assert closed.chat_calls == again.chat_calls and closed.cache_hits == again.cache_hits
    assert len(stub.requests) == sent


def test_an_imperfect_judge_costs_more_drafts(chat, openai_embeddings, stub):
    options = {"llm": chat, "embeddings": openai_embeddings, "cache": False}
    perfect = estimate_generation(EXAMPLE_DOCS, 6, good_rate=1.0, **options)
    harsh = estimate_generation(EXAMPLE_DOCS, 6, good_rate=0.5, **options)
    assert harsh.chat_calls > perfect.chat_calls
    assert stub.requests == []


def test_offline_models_estimate_to_zero_calls():
    estimate = estimate_generation(EXAMPLE_DOCS, 3)
    assert (estimate.chat_calls, estimate.embedding_requests, estimate.cost) == (0, 0, 0.0)
    assert "chat: offline, no calls" in format_estimate(estimate)
    assert "embeddings: offline, no requests" in str(estimate)


def test_cost_comes_from_the_price_table_and_unpriced_models_say_so(stub, tmp_path):
    from langchain_openai import ChatOpenAI

    kg = build_knowledge_graph(EXAMPLE_DOCS).kg  # offline: no call
    priced = ChatOpenAI(base_url=stub.base_url, api_key="sk-test", model="gpt-4o-mini", max_retries=0)
    estimate = estimate_generation(kg, 3, llm=priced, cache=tmp_path / "none")
    assert estimate.chat_calls > 0 and estimate.unpriced == []
    expected = price_of("gpt-4o-mini", estimate.input_tokens, estimate.output_tokens, DEFAULT_PRICES)
    assert estimate.chat_cost == pytest.approx(expected)
    assert estimate.cost == pytest.approx(expected) and f"~${expected:.4f}" in str(estimate)

    unpriced = priced.model_copy(update={"model_name": "stub-model"})
    estimate = estimate_generation(kg, 3, llm=unpriced, cache=False)
    assert estimate.chat_cost is None and estimate.unpriced == ["stub-model"]
    assert "unpriced" in str(estimate) and "stub-model" in str(estimate)
    assert stub.requests == []


def test_measured_usage_splits_chat_from_embeddings():
    usage = Usage()
    usage.record("synth.query", calls=3, input_tokens=3000, output_tokens=300, cost=0.5, cache_hits=2)
    usage.record("kg.embed.chunk.text", calls=2, cache_hits=7)
    usage.record("synth.embed", calls=1)
    measured = Estimate.from_usage(
        usage, llm=_named("gpt-4o-mini"), embeddings=_named("text-embedding-3-small")
    )
    assert (measured.chat_calls, measured.cache_hits, measured.embedding_requests) == (3, 2, 3)
    assert measured.embedding_tokens is None and measured.embedding_cost is None
    assert measured.chat_cost == 0.5 and measured.measured
    assert str(measured).startswith("measured:") and "tokens not reported" in str(measured)


def _named(name: str) -> Any:
    return type("Model", (), {"model_name": name})()


async def test_n_answers_in_one_call(chat, stub):
    engine = EstimatingEngine(cache=False)
    data = SampleToCheck(
        question="What does Prometheus scrape?", statements={"answers": "Targets.", "1": "Jobs."}
    )
    answers = await SampleCheckPrompt().run(chat, data, n=3, engine=engine)
    assert len(answers) == 3 and all(set(a.by_key()) == {"answers", "1"} for a in answers)
    assert engine.usage["verdict.sample"].calls == 1
    assert engine.usage["verdict.sample"].output_tokens > 3 * 10
    assert stub.requests == []


@pytest.mark.parametrize("method", list(Method))
async def test_every_structured_output_method_gets_a_usable_answer(chat, stub, method):
    engine = EstimatingEngine(cache=False)
    engine.structured_methods[model_identity(chat)] = method  # e.g. learned by the real engine (``like``)
    verdict = await JudgePrompt().run(chat, Passage(text="Prometheus scrapes targets."), engine=engine)
    assert isinstance(verdict.supported, bool) and verdict.reason
    assert engine.usage["test.judge"].calls == 1 and engine.usage["test.judge"].repairs == 0
    assert stub.requests == []


async def test_other_chat_models_run_as_a_stand_in_with_their_own_identity(tmp_path):
    real = FakeListChatModel(responses=["never sent"])
    engine = EstimatingEngine(cache=False)
    with pytest.raises(ConfigError, match="dry_model"):
        await JudgePrompt().run(real, Passage(text="Prometheus scrapes targets."), engine=engine)
    dry = engine.dry_model(real)
    assert model_identity(dry) == model_identity(real)
    verdict = await JudgePrompt().run(dry, Passage(text="Prometheus scrapes targets."), engine=engine)
    assert isinstance(verdict.supported, bool)
    assert engine.usage["test.judge"].calls == 1 and engine.usage["test.judge"].input_tokens > 20


def _output_models() -> list[tuple[str, type]]:
    """Every registered prompt's output model, and the keyed ones built per call."""
    found: list[tuple[str, type]] = []
    for name, cls in list_prompts().items():
        found.append((name, cls.output_model))
        if issubclass(cls.output_model, KeyedVerdicts):
            found.append((f"{name} keyed", keyed(("1", "2", "answers"))))
        if issubclass(cls.output_model, KeyedFacts):
            found.append((f"{name} keyed", keyed_facts(("p1", "p2", "p3"))))
        try:
            prompt = cls()
        except TypeError:
            continue
        for example_input, _ in prompt.examples:
            found.append((f"{name} example", prompt.output_model_for(example_input)))
    return found


OUTPUT_MODELS = _output_models()


@pytest.mark.parametrize("model", [m for _, m in OUTPUT_MODELS], ids=[n for n, _ in OUTPUT_MODELS])
def test_schema_filler_writes_valid_answers_for_every_prompt(model):
    schema = model.model_json_schema()
    words = "the scrape interval sets how often Prometheus reads each target and its metrics".split() * 5  # noqa: SIM905
    for seed in range(3):
        value = fill_schema(schema, seed=seed, vocabulary=words, good_rate=0.5, source=words)
        parsed = model.model_validate(value)
        assert json.loads(json.dumps(value)) == value
        if isinstance(parsed, KeyedVerdicts):
            assert set(parsed.by_key()) == set(schema.get("required", []))


def test_schema_filler_follows_the_schema_hints():
    schema = {
        "type": "object",
        "properties": {
            "phrases": {"type": "array", "items": {"type": "string"}, "description": "3 to 8 key phrases"},
            "few": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
            "kind": {"enum": ["b", "a"]},
            "rating": {"type": "integer", "minimum": 0, "maximum": 2},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "summary": {"type": "string", "description": "3 to 5 sentences"},
            "noncommittal": {"type": "boolean"},
            "verdict": {"type": "boolean"},
            "tag": {"type": "string", "maxLength": 3},
        },
    }
    value = fill_schema(schema, seed=1)
    assert len(value["phrases"]) == 6 and value["few"] == [1, 2] and value["kind"] == "b"
    assert value["rating"] == 2 and 0 < value["ratio"] < 1 and len(value["tag"]) <= 3
    assert value["summary"].count(".") == 4
    assert value["verdict"] is True and value["noncommittal"] is False
    assert fill_schema(schema, seed=1) == value  # deterministic
