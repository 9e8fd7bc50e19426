"""Tests for the local OpenAI-compatible stub server (tests/openai_stub.py)."""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import signal
import subprocess
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import openai
import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI, OpenAIEmbeddings
from pydantic import BaseModel, Field, TypeAdapter

from . import openai_stub as stub_module
from .openai_stub import Reply, StubServer, schema_instance

STUB_PATH = Path(__file__).with_name("openai_stub.py")


# --------------------------------------------------------------------------- helpers
# The `stub` fixture (a session-wide StubServer, reset around each test) comes from conftest.py.


def chat_model(stub: StubServer, **kwargs: Any) -> ChatOpenAI:
    return ChatOpenAI(base_url=stub.base_url, api_key="sk-test", model="stub-model", max_retries=0, **kwargs)


def embedder(stub: StubServer) -> OpenAIEmbeddings:
    return OpenAIEmbeddings(
        base_url=stub.base_url,
        api_key="sk-test",
        model="stub-embed",
        check_embedding_ctx_length=False,
    )


def post(
    conn: http.client.HTTPConnection, path: str, body: Any, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    """Send one JSON POST over ``conn`` and return the (unread) response."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    return conn.getresponse()


def wait_for(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


CHAT_BODY = {"model": "m", "messages": [{"role": "user", "content": "hello stub"}]}
CHAT, EMBEDDINGS = "/v1/chat/completions", "/v1/embeddings"


class _Module:
    """A module stand-in for one test: the given attributes replaced, the rest the real module's."""

    def __init__(self, real: Any, **replaced: Any) -> None:
        self._real = real
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _StubSleeps:
    """Every ``asyncio.sleep`` of the stub (its latency, a ``Reply.slow`` waiting) during one test, as
    ``calls``: (seconds, [(path, status)] of ``server``'s requests at that moment); ``cancelled`` counts
    the sleeps ended by a cancellation.

    ``virtual=True``: the stub's clock (``time.monotonic``) moves only when the stub sleeps, and a sleep
    only moves it, so the stub's delays are read in its own time instead of being waited out and timed.
    """

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, server: StubServer | None = None, *, virtual: bool = False
    ) -> None:
        self.calls: list[tuple[float, list[tuple[str, int | None]]]] = []
        self.cancelled = 0
        self._now = 1000.0
        sleep = asyncio.sleep

        async def recorded(delay: float, result: Any = None) -> Any:
            seen = [(r.path, r.status) for r in server.requests] if server is not None else []
            self.calls.append((delay, seen))
            try:
                if virtual:
                    self._now += delay
                    return await sleep(0, result)
                return await sleep(delay, result)
            except asyncio.CancelledError:
                self.cancelled += 1
                raise

        monkeypatch.setattr(stub_module, "asyncio", _Module(asyncio, sleep=recorded))
        if virtual:
            monkeypatch.setattr(stub_module, "time", _Module(time, monotonic=lambda: self._now))

    @property
    def delays(self) -> list[float]:
        return [delay for delay, _ in self.calls]


# --------------------------------------------------------------------------- models for schemas


class Color(StrEnum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    city: str
    zip_code: str = Field(min_length=5, max_length=5)


class Person(BaseModel):
    name: str
    age: int = Field(ge=18, lt=130)
    height: float = Field(gt=0.5)
    color: Color
    tags: list[str]
    addresses: list[Address] = Field(min_length=2)
    nickname: str | None = None
    manager: Address | None
    active: bool


class Tree(BaseModel):
    label: str
    children: list[Tree] = []


# --------------------------------------------------------------------------- chat


def test_default_text_answer_and_recording(stub: StubServer) -> None:
    msg = chat_model(stub).invoke("hello there stub")
    assert msg.content == "stub answer"
    assert msg.usage_metadata["input_tokens"] == 3
    assert msg.usage_metadata["output_tokens"] == 2
    [req] = stub.chat_requests
    assert req.status == 200 and not req.client_disconnected
    assert req.body["model"] == "stub-model"
    assert req.headers["authorization"] == "Bearer sk-test"
    assert req.path == "/v1/chat/completions" and req.method == "POST"
    assert req.received_at <= time.monotonic()
    assert stub.served_usage == (3, 2)
    assert stub.embedding_requests == []


def test_json_schema_with_pydantic_class(stub: StubServer) -> None:
    msg = chat_model(stub).invoke("describe a person", response_format=Person)
    person = msg.additional_kwargs["parsed"]
    assert isinstance(person, Person)
    assert person.color is Color.RED and person.age >= 18 and person.height > 0.5
    assert len(person.addresses) == 2 and len(person.addresses[0].zip_code) == 5
    assert len(person.tags) == 1


def test_json_schema_with_dict_response_format(stub: StubServer) -> None:
    schema = Person.model_json_schema()
    fmt = {"type": "json_schema", "json_schema": {"name": "person", "schema": schema}}
    msg = chat_model(stub).bind(response_format=fmt).invoke("describe a person")
    person = Person.model_validate_json(msg.content)
    assert person.nickname is None  # default used for the Optional field
    assert stub.chat_requests[0].body["response_format"]["type"] == "json_schema"


def test_with_structured_output_and_json_object(stub: StubServer) -> None:
    tree = chat_model(stub).with_structured_output(Tree).invoke("grow a tree")
    assert isinstance(tree, Tree)
    msg = chat_model(stub).bind(response_format={"type": "json_object"}).invoke("json please")
    assert json.loads(msg.content) == {}


def test_schema_instance_edge_cases() -> None:
    TypeAdapter(Tree).validate_python(schema_instance(Tree.model_json_schema()))
    assert schema_instance({"type": "string", "minLength": 9}) == "stubstubs"
    assert schema_instance({"type": "string", "const": "x"}) == "x"
    assert schema_instance({"type": ["null", "integer"], "exclusiveMinimum": 5}) == 6
    assert schema_instance({"type": "number", "maximum": 0.25}) == 0.25
    assert schema_instance({"allOf": [{"type": "null"}, {"type": "boolean"}]}) is True
    ints = {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 5}
    assert schema_instance(ints) == [1, 1, 1]
    pair = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "null"}]}
    assert schema_instance(pair) == ["stub", None]
    assert schema_instance({"type": "string", "format": "date"}) == "2024-01-01"
    assert schema_instance({"properties": {"a": {"default": [1]}}}) == {"a": [1]}


def get_weather(city: str, days: int) -> str:
    """Get the weather forecast for a city."""
    return "sunny"


def get_time(zone: str) -> str:
    """Get the time in a zone."""
    return "noon"


@pytest.mark.parametrize("tool_choice", ["get_time", "required", "auto"])
def test_tool_call_default(stub: StubServer, tool_choice: str) -> None:
    llm = chat_model(stub).bind_tools([get_weather, get_time], tool_choice=tool_choice)
    msg = llm.invoke("what's the weather?")
    [call] = msg.tool_calls
    expected = "get_weather" if tool_choice != "get_time" else "get_time"
    assert call["name"] == expected and call["id"].startswith("call_")
    if expected == "get_weather":
        assert call["args"] == {"city": "stub", "days": 1}
    assert msg.response_metadata["finish_reason"] == "tool_calls"
    assert msg.usage_metadata["output_tokens"] >= 1


def test_tools_without_tool_choice_answer_text(stub: StubServer) -> None:
    msg = chat_model(stub).bind_tools([get_weather]).invoke("hi")
    assert msg.content == "stub answer" and not msg.tool_calls


def test_n_choices_and_usage(stub: StubServer) -> None:
    llm = chat_model(stub)
    result = llm.generate([[HumanMessage("one two")]], n=3)
    assert len(result.generations[0]) == 3
    assert {g.text for g in result.generations[0]} == {"stub answer"}
    stub.push(Reply.text("a b c"))
    result = llm.generate([[SystemMessage("x"), HumanMessage("one two")]], n=3)
    assert [g.text for g in result.generations[0]] == ["a b c"] * 3
    usage = result.llm_output["token_usage"]
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (3, 9)
    assert stub.served_usage == (2 + 3, 6 + 9)


def test_usage_counts_list_content_and_override(stub: StubServer) -> None:
    llm = chat_model(stub)
    content = [{"type": "text", "text": "three little words"}, {"type": "text", "text": "and two"}]
    msg = llm.invoke([HumanMessage(content=content)])
    assert msg.usage_metadata["input_tokens"] == 5
    stub.push(Reply.text("", usage=(10, 20)))
    msg = llm.invoke("ignored")
    assert (msg.usage_metadata["input_tokens"], msg.usage_metadata["output_tokens"]) == (10, 20)
    stub.push(Reply.text(""))
    assert llm.invoke("x").usage_metadata["output_tokens"] == 1  # minimum of 1
    assert stub.served_usage == (5 + 10 + 1, 2 + 20 + 1)


# --------------------------------------------------------------------------- scripting


def test_push_queue_order_then_default(stub: StubServer) -> None:
    llm = chat_model(stub)
    stub.push(Reply.text("one"), Reply.json({"k": [1, 2]}), Reply.tool_call("get_time", {"zone": "UTC"}))
    assert llm.invoke("q").content == "one"
    assert json.loads(llm.invoke("q").content) == {"k": [1, 2]}
    assert llm.invoke("q").tool_calls[0]["args"] == {"zone": "UTC"}
    assert llm.invoke("q").content == "stub answer"


def test_always_on_chat_precedence_and_reset(stub: StubServer) -> None:
    llm = chat_model(stub)
    seen: list[dict] = []

    def handler(body: dict) -> Reply | None:
        seen.append(body)
        last = body["messages"][-1]["content"]
        return Reply.text(f"echo {last}") if last != "skip" else None

    stub.on_chat(handler)
    assert llm.invoke("hi").content == "echo hi"
    assert llm.invoke("skip").content == "stub answer"
    stub.always(Reply.text("fixed"))
    stub.push(Reply.text("queued"))
    assert [llm.invoke("x").content for _ in range(3)] == ["queued", "fixed", "fixed"]
    stub.always(None)
    assert llm.invoke("again").content == "echo again"
    assert len(seen) == 3
    stub.latency = 0.5
    stub.reset()
    assert stub.latency == 0 and stub.requests == [] and stub.served_usage == (0, 0)
    assert stub.connections_opened == 0
    assert llm.invoke("hi").content == "stub answer"


def test_handler_errors_become_500_and_replies_are_type_checked(stub: StubServer) -> None:
    stub.on_chat(lambda body: 1 / 0)
    with pytest.raises(openai.InternalServerError, match="ZeroDivisionError"):
        chat_model(stub).invoke("boom")
    stub.on_chat(lambda body: "not a Reply")
    with pytest.raises(openai.InternalServerError, match="expected a Reply"):
        chat_model(stub).invoke("boom")
    with pytest.raises(TypeError):
        stub.push("plain string")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Reply.error(200)


def test_always_500_raises_internal_server_error(stub: StubServer) -> None:
    stub.always(Reply.error(500))
    with pytest.raises(openai.InternalServerError) as info:
        chat_model(stub).invoke("hi")
    assert info.value.status_code == 500
    assert stub.chat_requests[0].status == 500
    assert stub.served_usage == (0, 0)


def test_429_with_retry_after_and_error_format(stub: StubServer) -> None:
    stub.push(Reply.error(429, retry_after=1, message="slow down"))
    with pytest.raises(openai.RateLimitError) as info:
        chat_model(stub).invoke("hi")
    assert info.value.response.headers["retry-after"] == "1"
    assert "slow down" in str(info.value)
    stub.push(Reply.error(503), Reply.error(400, message="bad"), Reply.error(429, retry_after=0.5))
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)
    assert resp.status == 503 and resp.getheader("Retry-After") is None
    assert json.loads(resp.read())["error"]["type"] == "server_error"
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)
    error = json.loads(resp.read())["error"]
    assert resp.status == 400 and error["message"] == "bad"
    assert set(error) >= {"message", "type", "code"}
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)
    resp.read()
    assert resp.getheader("Retry-After") == "0.5"
    conn.close()


def test_unknown_path_and_bad_body_are_openai_errors(stub: StubServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    conn.request("GET", "/v1/models")
    resp = conn.getresponse()
    assert resp.status == 404
    assert json.loads(resp.read())["error"]["code"] == "unknown_url"
    resp = post(conn, "/v1/chat/completions", b"{not json")
    assert resp.status == 400 and "error" in json.loads(resp.read())
    resp = post(conn, "/v1/embeddings", {"model": "e", "input": [{"bad": 1}]})
    assert resp.status == 400
    assert json.loads(resp.read())["error"]["type"] == "invalid_request_error"
    conn.close()
    assert [r.status for r in stub.requests] == [404, 400, 400]
    assert stub.requests[1].body is None


def test_slow_reply_client_timeout_records_disconnect(
    stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub.push(Reply.slow(3, then=Reply.text("too late")))
    with pytest.raises(openai.APITimeoutError):
        chat_model(stub, timeout=0.3).invoke("hi")
    assert wait_for(lambda: stub.requests[0].client_disconnected, timeout=2)
    assert stub.requests[0].status is None
    # The server keeps serving, and a slow reply shorter than the timeout succeeds after its whole delay,
    # watching for a disconnect all along (it never sleeps longer than one poll at a time).
    sleeps = _StubSleeps(monkeypatch, virtual=True)
    stub.push(Reply.slow(0.1, then=Reply.text("late but fine")))
    assert chat_model(stub, timeout=5).invoke("hi").content == "late but fine"
    assert sum(sleeps.delays) == pytest.approx(0.1)
    assert len(sleeps.delays) >= 2 and max(sleeps.delays) <= stub_module._POLL
    assert stub.served_usage == (1, 3)


def test_latency_applies_to_every_request(stub: StubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = _StubSleeps(monkeypatch, stub, virtual=True)
    stub.latency = 0.15
    chat_model(stub).invoke("hi")
    embedder(stub).embed_query("hi")
    # One latency wait per request, each after the request arrived and before it was answered.
    assert sleeps.calls == [(0.15, [(CHAT, None)]), (0.15, [(CHAT, 200), (EMBEDDINGS, None)])]


def test_malformed_body(stub: StubServer) -> None:
    stub.push(Reply.malformed_body(), Reply.malformed_body())
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)
    assert resp.status == 200 and resp.getheader("Content-Type") == "application/json"
    with pytest.raises(json.JSONDecodeError):
        json.loads(resp.read())
    conn.close()
    with pytest.raises(Exception):  # noqa: B017 - the exact client error is not our concern
        chat_model(stub).invoke("hi")
    assert stub.served_usage == (0, 0)


def test_truncated_body(stub: StubServer) -> None:
    stub.push(Reply.truncated(), Reply.truncated())
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)
    assert resp.status == 200
    with pytest.raises(http.client.IncompleteRead):
        resp.read()
    conn.close()
    with pytest.raises(openai.APIConnectionError):
        chat_model(stub).invoke("hi")
    assert [r.status for r in stub.requests] == [200, 200]
    assert stub.served_usage == (0, 0)


# --------------------------------------------------------------------------- embeddings


def test_embeddings_deterministic_and_normalised(stub: StubServer) -> None:
    emb = embedder(stub)
    docs = emb.embed_documents(["alpha beta", "gamma", "alpha beta"])
    assert len(docs) == 3 and all(len(v) == 64 for v in docs)
    assert docs[0] == docs[2] and docs[0] != docs[1]
    assert np.allclose(np.linalg.norm(np.array(docs), axis=1), 1.0, atol=1e-5)
    assert emb.embed_query("gamma") == docs[1]
    # the openai client asks for base64 by default; float format gives the same numbers
    assert stub.embedding_requests[0].body["encoding_format"] == "base64"
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    payload = {"model": "e", "input": "gamma", "encoding_format": "float"}
    resp = json.loads(post(conn, "/v1/embeddings", payload).read())
    assert resp["object"] == "list" and resp["model"] == "e"
    assert resp["data"][0]["object"] == "embedding" and resp["data"][0]["index"] == 0
    assert np.allclose(resp["data"][0]["embedding"], docs[1], atol=1e-7)
    assert resp["usage"] == {"prompt_tokens": 1, "total_tokens": 1}
    conn.close()


def test_embeddings_input_kinds_and_dimensions(stub: StubServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)

    def embed(inp: Any, **extra: Any) -> dict:
        resp = post(conn, "/v1/embeddings", {"model": "e", "input": inp, **extra})
        assert resp.status == 200
        return json.loads(resp.read())

    tokens = embed([1, 2, 3], dimensions=16)
    assert len(tokens["data"]) == 1 and len(tokens["data"][0]["embedding"]) == 16
    assert tokens["usage"]["prompt_tokens"] == 3
    batch = embed([[1, 2, 3], [4]], dimensions=16)
    assert batch["data"][0]["embedding"] == tokens["data"][0]["embedding"]
    assert batch["data"][1]["index"] == 1
    b64 = embed(["a b", "c"], encoding_format="base64", dimensions=8)
    vec = np.frombuffer(base64.b64decode(b64["data"][0]["embedding"]), dtype="<f4")
    assert vec.shape == (8,) and abs(np.linalg.norm(vec) - 1) < 1e-5
    assert b64["usage"]["total_tokens"] == 3
    conn.close()
    with StubServer(embedding_dim=32) as other:
        assert len(embedder(other).embed_query("x")) == 32


# --------------------------------------------------------------------------- transport


def test_keep_alive_reuses_one_connection(stub: StubServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    for path in ["/v1/chat/completions", "/v1/embeddings", "/v1/chat/completions", "/nope"]:
        body = CHAT_BODY if "chat" in path else {"model": "e", "input": "x"}
        resp = post(conn, path, body)
        resp.read()
        assert resp.getheader("Connection") == "keep-alive"
    ids = {r.connection_id for r in stub.requests}
    assert len(ids) == 1 and stub.connections_opened == 1
    resp = post(conn, "/v1/chat/completions", CHAT_BODY, {"Connection": "close"})
    resp.read()
    assert resp.getheader("Connection") == "close"
    resp = post(conn, "/v1/chat/completions", CHAT_BODY)  # http.client reconnects
    resp.read()
    conn.close()
    assert stub.connections_opened == 2
    *_, closing, reopened = stub.requests
    assert closing.connection_id in ids and reopened.connection_id not in ids


def test_many_concurrent_connections_and_async_client(stub: StubServer) -> None:
    request = (
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s"
    )
    body = json.dumps(CHAT_BODY).encode()

    async def one() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", stub.port)
        writer.write(request % (len(body), body))
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        writer.close()
        await writer.wait_closed()
        return head

    async def run() -> list[Any]:
        heads = await asyncio.gather(*(one() for _ in range(300)))
        # An own client: langchain's cached default one would outlive this event loop.
        async with httpx.AsyncClient() as client:
            llm = chat_model(stub, http_async_client=client)
            answers = await asyncio.gather(*(llm.ainvoke(f"q{i}") for i in range(20)))
        return [*heads, *answers]

    stub.latency = 0.05  # keeps all 300 connections open at the same time
    results = asyncio.run(run())
    assert all(h.startswith(b"HTTP/1.1 200 OK") for h in results[:300])
    assert all(m.content == "stub answer" for m in results[300:])
    assert stub.connections_opened >= 301
    assert len(stub.chat_requests) == 320


def test_keep_alive_burst_is_served_without_waiting(
    stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleeps = _StubSleeps(monkeypatch)
    conn = http.client.HTTPConnection("127.0.0.1", stub.port, timeout=5)
    answers = set()
    for _ in range(500):
        resp = post(conn, "/v1/chat/completions", CHAT_BODY)
        resp.read()
        answers.add((resp.status, resp.getheader("Connection")))
    conn.close()
    assert answers == {(200, "keep-alive")}
    assert [r.status for r in stub.requests] == [200] * 500
    assert len({r.connection_id for r in stub.requests}) == 1 and stub.connections_opened == 1
    assert sleeps.calls == []  # nothing on the serving path waits: no latency, no polling


def test_stop_with_inflight_requests_is_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps = _StubSleeps(monkeypatch)
    srv = StubServer().start()
    srv.push(Reply.slow(30))
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    conn.request("POST", "/v1/chat/completions", body=json.dumps(CHAT_BODY))
    idle = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    post(idle, "/v1/embeddings", {"model": "e", "input": "x"}).read()
    assert wait_for(lambda: len(srv.requests) == 2)
    srv.stop()
    assert srv._thread is not None and not srv._thread.is_alive()
    # stop() cancelled the 30 s reply while it waited, rather than waiting it out or abandoning it.
    assert sleeps.cancelled == 1
    assert [r.status for r in srv.requests if r.path == CHAT] == [None]
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        conn.getresponse()
    conn.close()
    idle.close()
    srv.stop()  # idempotent


def test_only_loopback_allowed_and_recording_can_be_off() -> None:
    with pytest.raises(ValueError):
        StubServer(host="0.0.0.0")
    with StubServer(record=False) as srv:
        assert chat_model(srv).invoke("a b").content == "stub answer"
        assert srv.requests == [] and srv.served_usage == (2, 2) and srv.connections_opened == 1


def test_standalone_mode() -> None:
    proc = subprocess.Popen(
        [sys.executable, str(STUB_PATH), "--port", "0", "--latency", "0.01"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("STUB_URL=http://127.0.0.1:") and line.endswith("/v1")
        port = int(line.removeprefix("STUB_URL=http://127.0.0.1:").removesuffix("/v1"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        resp = post(conn, "/v1/chat/completions", CHAT_BODY)
        assert resp.status == 200
        assert json.loads(resp.read())["choices"][0]["message"]["content"] == "stub answer"
        conn.close()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert out == "" and err == ""
