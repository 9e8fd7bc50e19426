"""Model resolution from specs, objects and the environment; offline embeddings."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.core import (
    OFFLINE_LLM,
    ConfigError,
    HashingEmbeddings,
    WordLlamaEmbeddings,
    model_identity,
    resolve_embeddings,
    resolve_llm,
)


def test_nothing_configured_means_offline():
    llm, emb = resolve_llm(env={}), resolve_embeddings(env={})
    assert llm.model is OFFLINE_LLM and llm.is_offline and llm.source == "default: nothing configured"
    assert isinstance(emb.model, WordLlamaEmbeddings) and emb.spec == "offline:wordllama-256"


def test_an_api_key_alone_does_not_switch_to_a_paid_model():
    assert resolve_llm(env={"OPENAI_API_KEY": "sk-abcdef123"}).is_offline


def test_openai_spec_from_env_and_argument():
    env = {
        "GROUNDSET_LLM": "openai:gpt-4o-mini?temperature=0",
        "OPENAI_API_KEY": "sk-abcdef123",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
    }
    llm = resolve_llm(env=env)
    assert llm.source == "environment variable GROUNDSET_LLM"
    assert llm.model.model_name == "gpt-4o-mini" and llm.model.temperature == 0
    assert llm.model.openai_api_base == "http://127.0.0.1:9/v1" and llm.model.max_retries == 0
    arg = resolve_llm("openai:gpt-4.1", env=env)
    assert arg.source == "argument" and arg.model.model_name == "gpt-4.1"
    emb = resolve_embeddings("openai:text-embedding-3-small", env=env)
    assert emb.model.model == "text-embedding-3-small" and emb.model.check_embedding_ctx_length is False
    assert resolve_embeddings("offline:256", env={}).model.dimension == 256


def test_local_server_needs_no_key():
    llm = resolve_llm("openai:llama3", env={"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"})
    assert llm.model.model_name == "llama3"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("anthropic:claude", "unknown model spec 'anthropic:claude'"),
        ("openai:", "names no model"),
        ("openai:gpt-4o?temp=1", "unknown option 'temp'"),
        ("openai:gpt-4o?temperature=hot", "temperature='hot' is not a valid float"),
        ("openai:gpt-4o", "needs an API key: set OPENAI_API_KEY"),
        ("offline:gpt", "'offline' takes no model name"),
    ],
)
def test_bad_llm_specs_name_the_problem_and_the_fix(spec, message):
    with pytest.raises(ConfigError, match=message.replace("?", r"\?")):
        resolve_llm(spec, env={})


def test_bad_objects_and_embedding_specs():
    with pytest.raises(ConfigError, match="LangChain BaseChatModel, got int"):
        resolve_llm(42)
    with pytest.raises(ConfigError, match="offline:<dimension>"):
        resolve_embeddings("offline:tiny", env={})
    with pytest.raises(ConfigError, match="GROUNDSET_EMBEDDINGS"):
        resolve_embeddings(env={"GROUNDSET_EMBEDDINGS": "word2vec"})


def test_objects_pass_through_and_identity_is_stable_and_secret_free():
    fake = FakeListChatModel(responses=["a"])
    assert resolve_llm(fake).model is fake and resolve_llm(fake).source == "object passed in"
    one = resolve_llm("openai:gpt-4o-mini", env={"OPENAI_API_KEY": "sk-secret-111111"}).model
    two = resolve_llm("openai:gpt-4o-mini", env={"OPENAI_API_KEY": "sk-secret-222222"}).model
    hot = resolve_llm("openai:gpt-4o-mini?temperature=1", env={"OPENAI_API_KEY": "sk-secret-111111"}).model
    assert model_identity(one) == model_identity(two)  # the key is not part of the identity
    assert model_identity(one) != model_identity(hot)
    assert "secret" not in model_identity(one)


def _cosine(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


TEXT = "Prometheus scrapes metrics from instrumented jobs over HTTP and stores them as time series."


def test_offline_embeddings_are_normalised_dense_float32_and_lexical():
    emb = HashingEmbeddings()
    matrix = emb.embed_matrix(
        [TEXT, TEXT.replace("scrapes", "pulls"), "The recipe needs two eggs and flour."]
    )
    assert matrix.dtype == np.float32 and matrix.shape == (3, 1024)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    assert _cosine(matrix[0], matrix[1]) > _cosine(matrix[0], matrix[2])
    assert _cosine(matrix[0], matrix[1]) > 0.5
    assert emb.embed_query(TEXT) == emb.embed_documents([TEXT])[0]


def test_offline_embeddings_are_the_same_in_another_process():
    code = (
        "import json; from groundset.core import HashingEmbeddings;"
        f"print(json.dumps(HashingEmbeddings().embed_query({TEXT!r})))"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert json.loads(other.stdout) == HashingEmbeddings().embed_query(TEXT)
