"""Embeddings through the call engine: per-text cache, single-flight, batching, offline path."""

from __future__ import annotations

import asyncio

import numpy as np

from groundset.core import CallEngine, HashingEmbeddings
from groundset.core.engine import EMBED_COALESCE_SECONDS


async def test_each_distinct_text_is_embedded_once(stub, openai_embeddings, tmp_path):
    engine = CallEngine(cache=tmp_path / "c", embedding_batch_size=4)
    texts = [f"chunk {i}" for i in range(10)] + ["chunk 0", "chunk 1"]
    matrix = await engine.embed(openai_embeddings, texts, stage="kg.embed")
    assert matrix.shape == (12, 64) and matrix.dtype == np.float32
    assert np.allclose(matrix[10], matrix[0]) and np.allclose(matrix[11], matrix[1])
    sent = [item for r in stub.embedding_requests for item in (r.body["input"])]
    assert len(sent) == 10 and len(stub.embedding_requests) == 3  # batches of 4, 4, 2
    again = await CallEngine(cache=tmp_path / "c").embed(openai_embeddings, texts[:5])
    assert np.array_equal(again, matrix[:5]) and len(stub.embedding_requests) == 3


async def test_concurrent_embedding_of_overlapping_texts_is_shared(stub, openai_embeddings, tmp_path):
    engine = CallEngine(cache=False)
    stub.latency = 0.05
    parts = await asyncio.gather(
        *(engine.embed(openai_embeddings, ["same text", f"own {i}"]) for i in range(20))
    )
    sent = [item for r in stub.embedding_requests for item in r.body["input"]]
    assert sent.count("same text") == 1 and len(sent) == 21
    assert len(stub.embedding_requests) < 20  # calls made at the same moment went out together
    assert all(np.array_equal(p[0], parts[0][0]) for p in parts)
    assert engine.usage["embeddings"].shared == 19


def test_offline_embeddings_through_the_engine_make_no_call(tmp_path):
    engine = CallEngine(cache=tmp_path / "c")
    matrix = engine.embed_sync(HashingEmbeddings(128), ["a b c", "d e f"], stage="kg.embed")
    assert matrix.shape == (2, 128)
    assert engine.usage["kg.embed"].offline == 2 and engine.usage["kg.embed"].calls == 0


async def test_texts_asked_while_every_slot_is_busy_go_out_in_one_request(stub, openai_embeddings):
    """When every embeddings slot is busy a request waits anyway: texts asked meanwhile join it, so
    scoring's many small embedding needs make few requests."""
    engine = CallEngine(cache=False, max_concurrency=1)
    gap = 1.5 * EMBED_COALESCE_SECONDS  # each later text well past the moment-coalescing window
    stub.latency = 8 * gap + 0.1  # and all asked while the first request holds the only slot

    async def later(i: int):
        await asyncio.sleep(gap * (i + 1))
        return await engine.embed(openai_embeddings, [f"late text {i}"])

    first, *rest = await asyncio.gather(
        engine.embed(openai_embeddings, ["first text"]), *(later(i) for i in range(6))
    )
    assert [len(r.body["input"]) for r in stub.embedding_requests] == [1, 6]
    assert first.shape == (1, 64) and all(part.shape == (1, 64) for part in rest)
    assert not any(np.array_equal(rest[0], part) for part in rest[1:])  # each caller got its own vector


def test_one_vector_per_token_is_mean_pooled_into_one_per_text(caplog):
    """llama.cpp's server without a pooling type answers with a vector per token."""
    from langchain_core.embeddings import Embeddings

    class PerToken(Embeddings):
        def embed_documents(self, texts):
            return [[[1.0, 0.0], [3.0, 2.0]] for _ in texts]

        def embed_query(self, text):
            return self.embed_documents([text])[0]

    matrix = CallEngine(cache=False).embed_sync(PerToken(), ["a b", "c d"], stage="t")
    assert matrix.shape == (2, 2) and np.allclose(matrix[0], [2.0, 1.0])
    assert "one vector per token" in caplog.text
