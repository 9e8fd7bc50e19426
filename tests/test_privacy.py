"""Nothing leaves the machine but model calls; the API key never shows up anywhere we write."""

from __future__ import annotations

import logging
import socket

import pytest

from groundset.cli import main
from groundset.core import CallEngine, ModelCallError, RetryPolicy, resolve_embeddings, resolve_llm

from .conftest import FAKE_KEY
from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage


@pytest.fixture
def connections(monkeypatch):
    """Record every outgoing connection and name lookup made by anything in this process."""
    seen: list[object] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(self, address):
        seen.append(address)
        return real_connect(self, address)

    def connect_ex(self, address):
        seen.append(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host, *args, **kwargs):
        seen.append(("lookup", host))
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return seen


async def test_no_telemetry_only_the_configured_endpoint_is_contacted(
    stub, connections, tmp_path, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    llm = resolve_llm("openai:stub-model").model
    emb = resolve_embeddings("openai:stub-embed").model
    engine = CallEngine(cache=tmp_path / "c")
    await JudgePrompt().run(llm, Passage(text="telemetry"), engine=engine)
    await engine.embed(emb, ["one", "two"])
    assert stub.chat_requests and stub.embedding_requests
    for entry in connections:
        if entry[0] == "lookup":
            assert entry[1] in ("127.0.0.1", "localhost"), entry
        else:
            assert entry[:2] == ("127.0.0.1", stub.port), entry


def test_offline_run_contacts_nothing(connections, tmp_path):
    from groundset.core import HashingEmbeddings

    from .prompts_for_tests import SplitPrompt

    engine = CallEngine(cache=tmp_path / "c")
    SplitPrompt().run_sync("offline", Passage(text="A. B."), engine=engine)
    engine.embed_sync(HashingEmbeddings(), ["a", "b"])
    assert main(["models"]) == 0
    assert connections == []


async def test_api_key_never_in_logs_cache_or_errors(stub, tmp_path, caplog, monkeypatch, capsys):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    llm = resolve_llm("openai:stub-model").model
    engine = CallEngine(cache=tmp_path / "cache", retry=RetryPolicy(max_retries=1, base_delay=0.01))
    await JudgePrompt().run(llm, Passage(text="cached answer"), engine=engine)
    await engine.embed(resolve_embeddings("openai:stub-embed").model, ["vector"])
    # an error whose body echoes the key, as some proxies do
    stub.always(Reply.error(401, message=f"Incorrect API key provided: {FAKE_KEY}"))
    with pytest.raises(ModelCallError) as caught:
        await JudgePrompt().run(llm, Passage(text="fails"), engine=engine)
    stub.always(Reply.error(503, message=f"upstream rejected {FAKE_KEY}"))
    with pytest.raises(ModelCallError) as caught503:
        await JudgePrompt().run(llm, Passage(text="fails too"), engine=engine)
    assert stub.chat_requests[0].headers["authorization"] == f"Bearer {FAKE_KEY}"  # it was really used
    for text in (str(caught.value), str(caught503.value), repr(caught.value), caplog.text):
        assert FAKE_KEY not in text
    assert "***" in str(caught.value)
    for path in (tmp_path / "cache").iterdir():
        assert FAKE_KEY.encode() not in path.read_bytes(), path
    assert main(["models", "--llm", "openai:stub-model"]) == 0
    captured = capsys.readouterr()
    assert FAKE_KEY not in captured.out + captured.err
