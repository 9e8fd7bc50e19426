"""Local OpenAI-compatible HTTP stub server for tests and benchmarks.

Real HTTP/1.1 (keep-alive, Content-Length bodies) on 127.0.0.1, served by an asyncio loop in a
background thread: ``POST /v1/chat/completions`` and ``POST /v1/embeddings``. Tests script chat
answers with :class:`Reply` (``push``/``always``/``on_chat``) and inspect ``requests``.

Standalone: ``python tests/openai_stub.py --port 0 --latency 0.05`` prints one line
``STUB_URL=http://127.0.0.1:PORT/v1`` and serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import json
import math
import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import numpy as np

HOST = "127.0.0.1"
CHAT_PATH = "/v1/chat/completions"
EMBEDDINGS_PATH = "/v1/embeddings"
_POLL = 0.02  # seconds between client-disconnect checks while a Reply.slow waits
_SHALLOW, _MAX_DEPTH = 6, 40  # schema depth limits (keeps recursive schemas finite)
_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00",
    "email": "stub@example.com",
    "uri": "https://example.com/stub",
    "uuid": "00000000-0000-4000-8000-000000000000",
}
Usage = tuple[int, int]
_PHRASES = {status.value: status.phrase for status in HTTPStatus}


@dataclass(frozen=True)
class Reply:
    """A scripted answer to one chat request; build it with the classmethods."""

    kind: str  # text | cut_off | tool_call | error | slow | malformed | truncated | no_choices
    content: str | None = None
    usage: Usage | None = None
    tool_name: str = ""
    arguments: str = "{}"  # JSON string of the tool-call arguments
    status: int = 200
    retry_after: float | str | None = None
    message: str = "stub error"
    delay: float = 0.0
    then: Reply | None = None

    @classmethod
    def text(cls, content: str, *, usage: Usage | None = None) -> Reply:
        """200 with ``content``; ``usage=(prompt, completion)`` overrides the token counts."""
        return cls("text", content=content, usage=usage)

    @classmethod
    def cut_off(cls, content: str) -> Reply:
        """200 with ``content`` and finish_reason "length": the answer stopped at max_tokens."""
        return cls("cut_off", content=content)

    @classmethod
    def json(cls, obj: Any, *, usage: Usage | None = None) -> Reply:
        """200 whose content is ``json.dumps(obj)``."""
        return cls("text", content=json.dumps(obj), usage=usage)

    @classmethod
    def tool_call(cls, name: str, args: dict[str, Any], *, usage: Usage | None = None) -> Reply:
        """200 with one tool call of ``name`` (finish_reason "tool_calls", content null)."""
        return cls("tool_call", tool_name=name, arguments=json.dumps(args), usage=usage)

    @classmethod
    def error(
        cls, status: int, *, retry_after: float | str | None = None, message: str = "stub error"
    ) -> Reply:
        """HTTP ``status`` with an OpenAI error body, plus ``Retry-After`` when given."""
        if not 400 <= status <= 599:
            raise ValueError(f"error status must be 4xx/5xx, got {status}")
        return cls("error", status=status, retry_after=retry_after, message=message)

    @classmethod
    def slow(cls, seconds: float, then: Reply | None = None) -> Reply:
        """Wait ``seconds`` (noticing client disconnects), then answer with ``then``/default."""
        return cls("slow", delay=seconds, then=then)

    @classmethod
    def malformed_body(cls) -> Reply:
        """200, Content-Type application/json, but the body is not valid JSON."""
        return cls("malformed")

    @classmethod
    def no_choices(cls) -> Reply:
        """200 with a well-formed chat.completion whose ``choices`` list is empty."""
        return cls("no_choices", content="")

    @classmethod
    def truncated(cls) -> Reply:
        """200 announcing a larger Content-Length than is sent; then the connection closes."""
        return cls("truncated")


@dataclass
class RecordedRequest:
    """One request as received; ``status`` is None if it was never answered."""

    path: str
    body: dict[str, Any] | None
    headers: dict[str, str]
    received_at: float
    connection_id: int
    status: int | None = None
    client_disconnected: bool = False
    method: str = "POST"


@dataclass
class _Response:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()
    declared_length: int = 0  # Content-Length to announce when it is not len(body)
    close: bool = False
    usage: Usage | None = None  # added to served_usage once sent


class _BadRequest(Exception):
    """Answer the current request with an OpenAI 400 error."""


def _error(
    status: int, message: str, retry_after: float | str | None = None, close: bool = False
) -> _Response:
    """OpenAI-style error response."""
    err_type = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}.get(
        status, "server_error" if status >= 500 else "invalid_request_error"
    )
    code = {404: "unknown_url", 429: "rate_limit_exceeded"}.get(status)
    body = {"error": {"message": message, "type": err_type, "param": None, "code": code}}
    if isinstance(retry_after, int | float):
        retry_after = f"{retry_after:.10g}"  # 1 -> "1", 0.5 -> "0.5"
    headers = (("Retry-After", retry_after),) if retry_after is not None else ()
    return _Response(status, json.dumps(body).encode(), headers, close=close)


def _words(text: Any) -> int:
    return len(text.split()) if isinstance(text, str) else 0


def _prompt_words(messages: list[Any]) -> int:
    """Words over all message contents: strings, or the text parts of list contents."""
    total = 0
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        parts = content if isinstance(content, list) else [{"text": content}]
        total += sum(_words(p.get("text")) for p in parts if isinstance(p, dict))
    return total


def _resolve_ref(root: Any, ref: str) -> Any:
    """Resolve a local ``#/...`` JSON pointer (anything else resolves to ``{}``)."""
    node = root if ref.startswith("#") else {}
    for part in filter(None, ref[1:].split("/")):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part, {}) if isinstance(node, dict) else {}
    return node


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    """A number within the schema's (exclusive) bounds, 1 if allowed."""
    step = 1 if integer else 1e-3
    lo = [schema.get("minimum"), _shift(schema.get("exclusiveMinimum"), step)]
    hi = [schema.get("maximum"), _shift(schema.get("exclusiveMaximum"), -step)]
    value: float = 1
    if lows := [b for b in lo if isinstance(b, int | float)]:
        value = max(value, math.ceil(max(lows)) if integer else max(lows))
    if highs := [b for b in hi if isinstance(b, int | float)]:
        value = min(value, math.floor(min(highs)) if integer else min(highs))
    return int(value) if integer else float(value)


def _shift(bound: Any, delta: float) -> float | None:
    numeric = isinstance(bound, int | float) and not isinstance(bound, bool)
    return bound + delta if numeric else None


def schema_instance(schema: Any, root: Any = None, depth: int = 0) -> Any:
    """A deterministic JSON value valid against (a practical subset of) JSON Schema ``schema``."""
    root = schema if root is None else root
    if depth > _MAX_DEPTH or not isinstance(schema, dict):
        return "stub" if schema is True else None
    if "$ref" in schema:
        return schema_instance(_resolve_ref(root, schema["$ref"]), root, depth + 1)
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list):
            branches = [b for b in schema[key] if not (isinstance(b, dict) and b.get("type") == "null")]
            return schema_instance(branches[0], root, depth + 1) if branches else None
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    shallow = depth > _SHALLOW  # past this depth: no optional properties, minimal arrays
    if kind == "object":
        required = set(schema.get("required", []))
        props = schema.get("properties", {}).items()
        return {k: schema_instance(v, root, depth + 1) for k, v in props if not shallow or k in required}
    if kind == "array":
        prefix, items = schema.get("prefixItems") or [], schema.get("items", {})
        if isinstance(items, list):  # draft-4 tuple form
            prefix, items = items, schema.get("additionalItems", {})
        count = max(schema.get("minItems", 0 if shallow else 1), len(prefix))
        count = min(count, schema.get("maxItems", count))
        subs = [prefix[i] if i < len(prefix) else items for i in range(count)]
        return [schema_instance(sub, root, depth + 1) for sub in subs]
    if kind == "string":
        text, size = _FORMATS.get(schema.get("format", ""), "stub"), schema.get("minLength", 0)
        text = (text * (size // len(text) + 1))[:size] if len(text) < size else text
        return text[: schema["maxLength"]] if "maxLength" in schema else text
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    return True if kind == "boolean" else None


@functools.lru_cache(maxsize=8192)
def _embedding(key: bytes, dim: int) -> np.ndarray:
    """Deterministic, L2-normalised little-endian float32 vector seeded from sha256(key)."""
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(key).digest(), "little"))
    vec = rng.standard_normal(dim)
    out = (vec / np.linalg.norm(vec)).astype("<f4")
    out.flags.writeable = False
    return out


def _embedding_inputs(raw: Any) -> list[tuple[bytes, int]]:
    """``input`` (str, [str], [int] or [[int]]) as a list of (hash key, token count)."""

    def is_tokens(value: Any) -> bool:
        return isinstance(value, list) and all(type(t) is int for t in value)

    if isinstance(raw, str) or (raw and is_tokens(raw)):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise _BadRequest("'input' must be a string, a list of strings or token ids")
    out = []
    for item in raw:
        if isinstance(item, str):
            out.append((item.encode(), _words(item)))
        elif is_tokens(item):
            out.append((b"tokens:" + ",".join(map(str, item)).encode(), len(item)))
        else:
            raise _BadRequest("'input' items must be strings or lists of token ids")
    return out


def _default_answer(body: dict[str, Any]) -> tuple[str | None, tuple[str, str] | None]:
    """(content, (tool name, arguments JSON) or None) when nothing is scripted."""
    tools = [t.get("function") or {} for t in body.get("tools") or [] if isinstance(t, dict)]
    choice, fmt = body.get("tool_choice"), body.get("response_format")
    forced = bool(tools) and (isinstance(choice, dict) or choice == "required")
    fmt_type = fmt.get("type") if isinstance(fmt, dict) and not forced else None
    if fmt_type == "json_schema":
        answer = schema_instance((fmt.get("json_schema") or {}).get("schema", {}))
        return json.dumps(_shaped_like_input(answer, body)), None
    if fmt_type == "json_object":
        return "{}", None
    if not (forced or (tools and choice == "auto")):
        return "stub answer", None
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name")
        tools = [t for t in tools if t.get("name") == name]
        if not tools:
            raise _BadRequest(f"tool_choice names an unknown function: {name!r}")
    args = schema_instance(tools[0].get("parameters") or {"type": "object"})
    return None, (str(tools[0].get("name")), json.dumps(_shaped_like_input(args, body)))


def _shaped_like_input(answer: Any, body: dict[str, Any]) -> Any:
    """Per-item answers get one item per input item, as a real judge gives: the answer's top-level
    arrays take the lengths of the lists in the ``Input: {...}`` message (in order, or of its only list).
    A prompt checking "one verdict per statement" then accepts the default answer."""
    try:
        text = body["messages"][-1]["content"]
        data = json.loads(text.removeprefix("Input: ")) if text.startswith("Input: ") else None
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):
        return answer
    if not isinstance(answer, dict) or not isinstance(data, dict):
        return answer
    lengths = [len(v) for v in data.values() if isinstance(v, list)]
    arrays = [k for k, v in answer.items() if isinstance(v, list) and v]
    if not lengths or (len(lengths) != len(arrays) and len(lengths) != 1):
        return answer
    for i, key in enumerate(arrays):
        answer[key] = answer[key][:1] * lengths[i if len(lengths) > 1 else 0]
    return answer


def _choice(
    index: int, content: str | None, tool: tuple[str, str] | None, *, cut_off: bool = False
) -> dict[str, Any]:
    """One chat choice; a tool call gets a fresh ``call_...`` id."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool is not None:
        function = {"name": tool[0], "arguments": tool[1]}
        message["tool_calls"] = [
            {"id": f"call_{uuid.uuid4().hex[:24]}", "type": "function", "function": function}
        ]
    finish = "length" if cut_off else "stop" if tool is None else "tool_calls"
    return {"index": index, "message": message, "finish_reason": finish, "logprobs": None}


def _parse_head(head: bytes) -> tuple[str, str, str, dict[str, str]]:
    """Request line and headers (lower-case names); ValueError if malformed."""
    lines = head.decode("latin-1").split("\r\n")
    method, target, version = lines[0].split(" ")
    headers = {}
    for line in filter(None, lines[1:]):
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"bad header line {line!r}")
        headers[name.strip().lower()] = value.strip()
    return method, target.split("?", 1)[0], version, headers


def _checked(reply: Any) -> Reply:
    if not isinstance(reply, Reply):
        raise TypeError(f"expected a Reply, got {type(reply).__name__}")
    return reply


class StubServer:
    """OpenAI-compatible HTTP/1.1 stub on 127.0.0.1, served from a background thread."""

    def __init__(
        self, host: str = HOST, port: int = 0, embedding_dim: int = 64, *, record: bool = True
    ) -> None:
        """``record=False`` keeps no RecordedRequest (long benchmarks); counters still work."""
        if host != HOST:
            raise ValueError("the stub only binds to 127.0.0.1")
        self.host, self.embedding_dim, self._wanted_port = host, embedding_dim, port
        self._record = record
        self._port: int | None = None
        self._lock = threading.Lock()  # guards everything below that tests can touch
        self._queue: collections.deque[Reply] = collections.deque()
        self._always: Reply | None = None
        self._handler: Callable[[dict[str, Any]], Reply | None] | None = None
        self._records: list[RecordedRequest] = []
        self._connections, self._usage, self._latency = 0, (0, 0), 0.0
        self._conn_ids = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # loop thread only

    def start(self) -> StubServer:
        """Start serving; returns once the socket is listening."""
        if self._thread is not None:
            raise RuntimeError("StubServer can only be started once")
        self._thread = threading.Thread(target=self._run, name="openai-stub", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._startup_error is not None:
            self._thread.join()
            raise RuntimeError("stub server failed to start") from self._startup_error
        return self

    def stop(self) -> None:
        """Close all connections, stop the loop and join the thread (idempotent)."""
        if self._thread is None or not self._thread.is_alive():
            return
        if self._loop is not None and self._stopping is not None:
            with contextlib.suppress(RuntimeError):  # loop already closed
                self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("StubServer is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    @property
    def latency(self) -> float:
        """Seconds slept (asynchronously) before answering every request."""
        return self._latency

    @latency.setter
    def latency(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("latency must be >= 0")
        self._latency = float(seconds)

    def push(self, *replies: Reply) -> None:
        """Queue replies for the next chat requests, consumed in order."""
        with self._lock:
            self._queue.extend(_checked(r) for r in replies)

    def always(self, reply: Reply | None) -> None:
        """Answer every chat request with ``reply`` once the queue is empty (None: default)."""
        with self._lock:
            self._always = None if reply is None else _checked(reply)

    def on_chat(self, handler: Callable[[dict[str, Any]], Reply | None] | None) -> None:
        """Use ``handler(body)`` when queue and ``always`` are empty; None from it: default."""
        with self._lock:
            self._handler = handler

    def reset(self) -> None:
        """Clear scripting, recorded requests and counters; latency back to 0."""
        with self._lock:
            self._queue.clear()
            self._always = self._handler = None
            self._records.clear()
            self._connections, self._usage, self._latency = 0, (0, 0), 0.0

    @property
    def requests(self) -> list[RecordedRequest]:
        """Copies of all recorded requests, in arrival order."""
        with self._lock:
            return [dataclasses.replace(r, headers=dict(r.headers)) for r in self._records]

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == CHAT_PATH]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == EMBEDDINGS_PATH]

    @property
    def connections_opened(self) -> int:
        with self._lock:
            return self._connections

    @property
    def served_usage(self) -> Usage:
        """(prompt_tokens, completion_tokens) summed over chat 200 responses actually sent."""
        with self._lock:
            return self._usage

    # ------------------------------------------------------------------ loop thread
    def _run(self) -> None:
        self._loop = loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # noqa: BLE001 - re-raised by start()
            self._startup_error = exc
        finally:
            self._ready.set()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(
            self._connection, HOST, self._wanted_port, backlog=4096, limit=1 << 20
        )
        self._port = server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stopping.wait()
        for sock in server.sockets:  # stop accepting, but let in-flight accepts complete
            asyncio.get_running_loop().remove_reader(sock.fileno())
        for _ in range(20):  # until every other task (accepts, connections) has finished
            pending = asyncio.all_tasks() - {asyncio.current_task()}
            if not pending:
                break
            for task in self._tasks:  # connection handlers end quietly when cancelled
                task.cancel()
            await asyncio.wait(pending, timeout=0.25)
        server.close()
        await server.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None and self._stopping is not None
        self._tasks.add(task)
        conn_id = next(self._conn_ids)
        with self._lock:
            self._connections += 1
        try:
            while not self._stopping.is_set() and await self._serve_one(reader, writer, conn_id):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # stop(); ending normally keeps 3.11's start_server callback quiet
        finally:
            self._tasks.discard(task)
            if self._stopping.is_set():
                writer.transport.abort()  # do not wait for unread output to drain
            else:
                writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve_one(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, conn_id: int
    ) -> bool:
        """Read, answer and record one request; return whether to keep the connection."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False  # client closed between requests
        except asyncio.LimitOverrunError:
            await self._send(writer, _error(431, "request headers too large", close=True))
            return False
        try:
            method, path, version, headers = _parse_head(head)
            if "transfer-encoding" in headers:
                raise ValueError("only Content-Length request bodies are supported")
            raw = await reader.readexactly(int(headers.get("content-length", "0")))
        except ValueError as exc:
            await self._send(writer, _error(400, f"bad HTTP request: {exc}", close=True))
            return False
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        body = body if isinstance(body, dict) else None
        record = RecordedRequest(path, body, headers, time.monotonic(), conn_id, method=method)
        if self._record:
            with self._lock:
                self._records.append(record)
        conn_header = headers.get("connection", "").lower()
        keep = conn_header != "close" if version == "HTTP/1.1" else conn_header == "keep-alive"
        if self._latency > 0:
            await asyncio.sleep(self._latency)
        response = None
        if not (reader.at_eof() or writer.is_closing()):
            response = await self._route(method, path, body, reader, writer)
        if response is None or writer.is_closing():
            with self._lock:  # the client went away before the answer was ready
                record.client_disconnected = True
            return False
        response.close = response.close or not keep
        prompt, completion = response.usage or (0, 0)
        with self._lock:  # before writing: the client may look as soon as it has read
            record.status = response.status
            self._usage = (self._usage[0] + prompt, self._usage[1] + completion)
        if not await self._send(writer, response):
            with self._lock:
                record.status, record.client_disconnected = None, True
                self._usage = (max(0, self._usage[0] - prompt), max(0, self._usage[1] - completion))
            return False
        return not response.close

    async def _route(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> _Response | None:
        """The response for one request, or None if the client disconnected meanwhile."""
        if method != "POST" or path not in (CHAT_PATH, EMBEDDINGS_PATH):
            return _error(404, f"Unknown request URL: {method} {path}")
        try:
            if body is None:
                raise _BadRequest("the request body must be a JSON object")
            if path == EMBEDDINGS_PATH:
                return self._embeddings(body)
            if not isinstance(body.get("messages"), list):
                raise _BadRequest("'messages' must be a list")
            reply = self._next_reply(body)
            while reply is not None and reply.kind == "slow":
                deadline = time.monotonic() + reply.delay
                while (left := deadline - time.monotonic()) > 0:
                    if reader.at_eof() or writer.is_closing():
                        return None
                    await asyncio.sleep(min(left, _POLL))
                reply = reply.then
            return self._chat(body, reply)
        except _BadRequest as exc:
            return _error(400, str(exc))
        except Exception as exc:  # noqa: BLE001 - e.g. a failing on_chat handler
            return _error(500, f"stub server error: {exc!r}")

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, response: _Response) -> bool:
        """Write ``response``; False if the client is gone."""
        status = response.status
        lines = [
            f"HTTP/1.1 {status} {_PHRASES.get(status, 'Status')}",
            "Content-Type: application/json",
            f"Content-Length: {response.declared_length or len(response.body)}",
            f"Connection: {'close' if response.close else 'keep-alive'}",
            *(f"{k}: {v}" for k, v in response.headers),
        ]
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + response.body)
            await writer.drain()
        except ConnectionError:
            return False
        return True

    def _next_reply(self, body: dict[str, Any]) -> Reply | None:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            if self._always is not None or self._handler is None:
                return self._always
            handler = self._handler
        reply = handler(body)  # exceptions become a 500 in _route
        return None if reply is None else _checked(reply)

    def _chat(self, body: dict[str, Any], reply: Reply | None) -> _Response:
        """A chat.completion for ``reply`` (None: default behaviour)."""
        kind = "default" if reply is None else reply.kind
        if reply is not None and kind == "error":
            return _error(reply.status, reply.message, reply.retry_after)
        if kind == "malformed":
            return _Response(200, b'{"id": "chatcmpl-stub", "choices": [{"index": 0,, oops')
        n = body.get("n") or 1
        if type(n) is not int or n < 1:
            raise _BadRequest("'n' must be a positive integer")
        if reply is None:
            content, tool = _default_answer(body)
        else:
            content = reply.content
            tool = (reply.tool_name, reply.arguments) if kind == "tool_call" else None
        if reply is not None and reply.usage is not None:
            prompt, completion = reply.usage
        else:
            prompt = max(1, _prompt_words(body["messages"]))
            completion = max(1, n * (_words(content) + _words(tool[1] if tool else None)))
        usage = {"prompt_tokens": prompt, "completion_tokens": completion}
        payload = {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion"}
        payload.update(created=int(time.time()), model=body.get("model", "stub-model"))
        payload["choices"] = [_choice(index, content, tool, cut_off=kind == "cut_off") for index in range(n)]
        if kind == "no_choices":
            payload["choices"] = []
        payload["usage"] = {**usage, "total_tokens": prompt + completion}
        data = json.dumps(payload).encode()
        if kind == "truncated":
            return _Response(200, data[: len(data) // 2], declared_length=len(data), close=True)
        return _Response(200, data, usage=(prompt, completion))

    def _embeddings(self, body: dict[str, Any]) -> _Response:
        """An embeddings list: deterministic unit vectors, as floats or base64 float32."""
        items = _embedding_inputs(body.get("input"))
        dim = body.get("dimensions", self.embedding_dim)
        if type(dim) is not int or dim < 1:
            raise _BadRequest("'dimensions' must be a positive integer")
        encoding = body.get("encoding_format") or "float"
        if encoding not in ("float", "base64"):
            raise _BadRequest("'encoding_format' must be 'float' or 'base64'")
        data = []
        for index, (key, _) in enumerate(items):
            vec = _embedding(key, dim)
            value = vec.tolist() if encoding == "float" else base64.b64encode(vec).decode()
            data.append({"object": "embedding", "index": index, "embedding": value})
        tokens = max(1, sum(count for _, count in items))
        payload = {"object": "list", "data": data, "model": body.get("model", "stub-embed")}
        payload["usage"] = {"prompt_tokens": tokens, "total_tokens": tokens}
        return _Response(200, json.dumps(payload).encode())


def main(argv: list[str] | None = None) -> int:
    """Print ``STUB_URL=...`` on stdout, then serve until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(description="Local OpenAI-compatible stub server")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: any)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added per request")
    parser.add_argument("--embedding-dim", type=int, default=64)
    args = parser.parse_args(argv)
    signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)  # before the server thread exists
    with StubServer(port=args.port, embedding_dim=args.embedding_dim, record=False) as stub:
        stub.latency = args.latency
        print(f"STUB_URL={stub.base_url}", flush=True)
        signal.sigwait(signals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
