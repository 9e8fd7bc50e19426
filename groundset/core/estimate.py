"""Know the bill before paying it: a dry run of the real pipeline through an engine that calls no model.

``EstimatingEngine`` is a ``CallEngine`` whose requests never leave the process. Everything else is the
real engine's: the same cache keys (the real model's identity), single-flight, batching of embeddings,
n>1 requests, repairs and usage accounting by stage. Where a request would go out it answers itself:

- chat: a schema-valid answer synthesised for the requested output schema (``schema_fill``), so the
  run goes on as a real one would, with input tokens estimated from the request's characters and
  output tokens from the synthesised answer;
- embeddings: lexical pseudo-vectors (hashed words, the offline ``HashingEmbeddings``) of the real
  model's dimension, counted as the batched requests the real engine would send.

The persistent cache is read-only: a call a rerun would answer from the cache counts as a hit, not a
call, and nothing is ever written, not even SQLite's side files (see ``ReadOnlyCache``).
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from .aio import on_engine, on_engine_thread
from .cache import FILENAME, CallCache, default_cache_dir
from .engine import CallEngine
from .errors import ConfigError
from .hashing import stable_hash
from .models import is_offline, model_identity, model_name
from .offline_embeddings import HashingEmbeddings, OfflineEmbeddings
from .schema_fill import DryChat, answer_request, text_tokens
from .structured import is_openai_like
from .usage import Usage, current_stage, price_of

OPENAI_DIMENSION, OTHER_DIMENSION = 1536, 256
KNOWN_DIMENSIONS = {
    "text-embedding-3-large": 3072,
    "text-embedding-3-small": 1536,
    "text-embedding-ada-002": 1536,
}
# The chance that a made-up verdict is the good one. Below 1 because judges reject drafts (unsupported
# statements, references that do not answer), and each rejection costs another draft and check. 0.75
# puts the estimate within ~10-20% of the calls and tokens measured on the Prometheus docs against an
# imperfect judge (mockllm); a stronger judge rejects fewer drafts, so there it errs high, the safe side.
GOOD_RATE = 0.75


class _DryClient:
    """Stands in for a model's client (``CallEngine.loop_safe``): answers, and never sends a request."""

    def __init__(self, engine: EstimatingEngine, model: Any) -> None:
        self.engine, self.model = engine, model

    async def agenerate(self, batches: list[list[BaseMessage]], **kwargs: Any) -> LLMResult:
        """An OpenAI-style chat request (``chat_request.send_chat``), answered here."""
        return answer_request(batches[0], kwargs, self.engine.good_rate)

    async def aembed_documents(self, texts: list[str]) -> list[np.ndarray]:
        """One embeddings request of the real engine's batching: counted, answered with pseudo-vectors."""
        self.engine.embedding_requests += 1
        self.engine.embedding_tokens += sum(text_tokens(t) for t in texts)
        dimension = self.engine.dimensions.get(model_identity(self.model), OTHER_DIMENSION)
        return list(HashingEmbeddings(dimension).embed_matrix(list(texts)))


class ReadOnlyCache(CallCache):
    """The call cache, read and never written. With no WAL file beside it (no writer is open: the usual
    case) the file is opened ``immutable``, which touches nothing at all; with one, ``mode=ro`` reads
    the live writer's answers too, and only SQLite's lock index (``-shm``, shared with that writer)
    changes. A store that cannot be read counts as empty: the estimate is then on the high side."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory).expanduser()
        self.path = self.directory / FILENAME
        self._lock = threading.Lock()
        wal = self.path.with_name(FILENAME + "-wal")
        mode = "mode=ro" if wal.exists() and wal.stat().st_size > 0 else "immutable=1"
        try:
            self._conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?{mode}", uri=True, check_same_thread=False
            )
            self._conn.execute("SELECT 1 FROM calls LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            raise ConfigError(f"cannot read the call cache in {self.directory}: {exc}") from exc

    def get(self, key: str) -> bytes | None:
        return self.get_many([key]).get(key)

    def get_many(self, keys: Any) -> dict[str, bytes]:
        try:
            return super().get_many(keys)
        except sqlite3.Error:
            return {}

    def put_many(self, items: Any, kind: str, *, label: str | None = None) -> None:
        """Never stored: a dry run's answers are made up."""

    def discard(self, key: str) -> None:
        """Kept: an answer that fails its checks is asked again (a call), but stays for the real run."""

    def remove(self, **_: Any) -> int:
        raise ConfigError("the estimate's cache is read-only")

    def vacuum(self) -> bool:
        return False


def open_read_only(cache: Any) -> ReadOnlyCache | None:
    """``True``/``None``: the default dir; ``False``: none; a dir or a ``CallCache``: that store.
    A store that does not exist yet is no store: every call counts, and nothing is created."""
    if cache is False:
        return None
    if isinstance(cache, CallCache):
        directory = cache.directory
    else:
        directory = default_cache_dir() if cache is None or cache is True else Path(cache)
    if not (Path(directory).expanduser() / FILENAME).is_file():
        return None
    try:
        return ReadOnlyCache(directory)
    except ConfigError:
        return None


class EstimatingEngine(CallEngine):
    """A ``CallEngine`` for a dry run (see the module docstring); ``estimate(llm, embeddings)`` totals it.

    Its usage goes to its own ``usage`` only, never to the caller's ``track()`` scopes, so an estimate
    made inside a tracked run does not count as spent.
    """

    def __init__(
        self,
        *,
        cache: Any = True,
        prices: dict[str, tuple[float, float]] | None = None,
        max_concurrency: int = 16,
        embedding_batch_size: int = 256,
        good_rate: float = GOOD_RATE,
    ) -> None:
        if not 0 <= good_rate <= 1:
            raise ValueError(f"good_rate must be within 0 and 1, got {good_rate}")
        super().__init__(
            cache=False,
            max_concurrency=max_concurrency,
            timeout=None,
            prices=prices,
            embedding_batch_size=embedding_batch_size,
        )
        self.cache = open_read_only(cache)
        self.good_rate = good_rate
        self.embedding_requests = 0
        self.embedding_tokens = 0
        self.dimensions: dict[str, int] = {}  # embeddings model identity -> vector length

    @classmethod
    def like(cls, engine: CallEngine, *, good_rate: float = GOOD_RATE) -> EstimatingEngine:
        """A dry twin of ``engine``: its cache (read-only), prices, concurrency, batching and the
        structured-output methods it learned per model."""
        dry = cls(
            cache=engine.cache if engine.cache is not None else False,
            prices=engine.prices,
            max_concurrency=engine.max_concurrency,
            embedding_batch_size=engine.embedding_batch_size,
            good_rate=good_rate,
        )
        dry.structured_methods.update(engine.structured_methods)
        dry.one_answer_per_request.update(engine.one_answer_per_request)
        return dry

    def dry_model(self, llm: Any) -> Any:
        """The chat model to run the dry run with: OpenAI-like models as they are (their requests go
        through ``loop_safe``), any other chat model as its ``DryChat`` stand-in."""
        if isinstance(llm, BaseChatModel) and not is_openai_like(llm) and not isinstance(llm, DryChat):
            temperature = getattr(llm, "temperature", None)
            return DryChat(
                identity=model_identity(llm),
                model_name=model_name(llm),
                temperature=temperature if isinstance(temperature, int | float) else None,
                good_rate=self.good_rate,
            )
        return llm

    def record(self, stage: str | None, **counts: float) -> None:
        self.usage.record(stage or current_stage(), **counts)

    def loop_safe(self, model: Any) -> Any:
        return _DryClient(self, model)

    async def request(self, model: Any, stage: str | None, send: Any, *, kind: str = "chat") -> Any:
        if isinstance(model, BaseChatModel) and not (is_openai_like(model) or isinstance(model, DryChat)):
            raise ConfigError(
                f"a dry run cannot intercept {type(model).__name__}'s requests: "
                "run it as EstimatingEngine.dry_model(model)"
            )
        return await super().request(model, stage, send, kind=kind)

    async def embed(self, model: Any, texts: Any, *, stage: str | None = "embeddings") -> np.ndarray:
        if not on_engine_thread():
            return await on_engine(self.embed(model, texts, stage=stage))
        texts = list(texts)
        if not isinstance(model, OfflineEmbeddings):
            self._learn_dimension(model, texts)
        return await super().embed(model, texts, stage=stage)

    def _learn_dimension(self, model: Embeddings, texts: list[str]) -> None:
        """The real vectors' length, so cached and made-up vectors mix: the model's own setting, a
        cached vector of the first texts asked for, the known length of its name, else a default."""
        identity = model_identity(model)
        if identity in self.dimensions:
            return
        dimension = getattr(model, "dimensions", None)
        if not isinstance(dimension, int) and self.cache is not None and texts:
            keys = [stable_hash(["embedding", identity, text]) for text in texts[:512]]
            blob = next(iter(self.cache.get_many(keys).values()), None)
            dimension = len(blob) // 4 if blob else None
        if not isinstance(dimension, int) or dimension < 16:
            openai_like = type(model).__module__.startswith("langchain_openai")
            dimension = KNOWN_DIMENSIONS.get(
                model_name(model), OPENAI_DIMENSION if openai_like else OTHER_DIMENSION
            )
        self.dimensions[identity] = dimension

    def estimate(self, llm: Any, embeddings: Any) -> Estimate:
        """The totals of everything run through this engine so far."""
        options = {"prices": self.prices, "embedding_tokens": self.embedding_tokens, "measured": False}
        return Estimate.from_usage(self.usage, llm=llm, embeddings=embeddings, **options)


def is_embedding_stage(stage: str) -> bool:
    """Embedding calls are recorded under "embeddings" or a "<what>.embed[...]" stage."""
    return stage == "embeddings" or ".embed" in stage or stage.startswith("embed")


@dataclass(frozen=True)
class Estimate:
    """What a run costs, estimated by a dry run or measured after a real one (``measured``), in the same
    terms so the two can be set side by side. A cost of None: the model has no price (or, measured,
    the embeddings API reported no tokens)."""

    llm: str
    embeddings: str
    chat_calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    embedding_requests: int = 0
    embedding_cache_hits: int = 0
    embedding_tokens: int | None = 0
    chat_cost: float | None = 0.0
    embedding_cost: float | None = 0.0
    offline_llm: bool = False
    offline_embeddings: bool = False
    measured: bool = False
    calls_by_stage: dict[str, int] = field(default_factory=dict, compare=False)

    @classmethod
    def from_usage(
        cls,
        usage: Usage,
        *,
        llm: Any,
        embeddings: Any,
        prices: dict[str, tuple[float, float]] | None = None,
        embedding_tokens: int | None = None,
        measured: bool = True,
    ) -> Estimate:
        """The figures of ``usage`` (e.g. a real run's ``track()``), chat and embedding stages apart."""
        from .usage import DEFAULT_PRICES

        prices = {**DEFAULT_PRICES, **(prices or {})}
        chat = [s for name, s in usage.stages.items() if not is_embedding_stage(name)]
        embed = [s for name, s in usage.stages.items() if is_embedding_stage(name)]
        llm_name, embeddings_name = _name(llm), _name(embeddings)
        calls = sum(s.calls for s in chat)
        requests = sum(s.calls for s in embed)
        chat_cost = (
            sum(s.cost for s in chat) if calls == 0 or price_of(llm_name, 0, 0, prices) is not None else None
        )
        embedding_cost: float | None = 0.0
        if requests:
            embedding_cost = price_of(embeddings_name, embedding_tokens or 0, 0, prices)
            if embedding_tokens is None and embedding_cost is not None:
                embedding_cost = None  # priced, but the API reported no tokens: unknown
        return cls(
            llm=llm_name,
            embeddings=embeddings_name,
            chat_calls=calls,
            cache_hits=sum(s.cache_hits for s in chat),
            input_tokens=sum(s.input_tokens for s in chat),
            output_tokens=sum(s.output_tokens for s in chat),
            embedding_requests=requests,
            embedding_cache_hits=sum(s.cache_hits for s in embed),
            embedding_tokens=embedding_tokens,
            chat_cost=chat_cost,
            embedding_cost=embedding_cost,
            offline_llm=is_offline(llm),
            offline_embeddings=is_offline(embeddings),
            measured=measured,
            calls_by_stage={name: s.calls for name, s in sorted(usage.stages.items()) if s.calls},
        )

    @property
    def cost(self) -> float:
        """The known part of the cost, in USD (see ``unpriced``)."""
        return (self.chat_cost or 0.0) + (self.embedding_cost or 0.0)

    @property
    def unpriced(self) -> list[str]:
        """The models whose calls have no known cost (no price, or no tokens reported): not in ``cost``."""
        parts = [
            (self.llm, self.chat_calls, self.chat_cost),
            (self.embeddings, self.embedding_requests, self.embedding_cost),
        ]
        return [name for name, calls, cost in parts if calls and cost is None]

    def lines(self) -> list[str]:
        """The figures as printed by ``groundset generate --estimate`` (and after a real run, measured)."""
        about = "" if self.measured else "~"
        head = "measured" if self.measured else "estimate (dry run: no model was called)"
        if self.offline_llm:
            chat = "chat: offline, no calls"
        else:
            chat = (
                f"chat ({self.llm}): {self.chat_calls:,} calls ({self.cache_hits:,} from the cache), "
                f"{about}{self.input_tokens:,} tokens in / {about}{self.output_tokens:,} out, "
                + _money(self.chat_cost, about, f"unpriced (no price for {self.llm!r} in the price table)")
            )
        if self.offline_embeddings:
            embed = "embeddings: offline, no requests"
        else:
            tokens = (
                "tokens not reported"
                if self.embedding_tokens is None
                else f"{about}{self.embedding_tokens:,} tokens"
            )
            missing = "cost unknown" if self.embedding_tokens is None else "unpriced"
            # A dry run answers at once, so more texts merge into each request than when answers come
            # in over time: the real count is higher (the texts and tokens are the same).
            least = "" if self.measured else "at least "
            embed = (
                f"embeddings ({self.embeddings}): {least}{self.embedding_requests:,} requests "
                f"({self.embedding_cache_hits:,} texts from the cache), {tokens}, "
                + _money(self.embedding_cost, about, missing)
            )
        total = f"cost: {about}${self.cost:.4f}"
        if self.unpriced:
            total += f" + the calls of {', '.join(self.unpriced)} (cost unknown)"
        return [f"{head}:", f"  {chat}", f"  {embed}", f"  {total}"]

    def versus(self, measured: Estimate) -> str:
        """One line setting this estimate beside a real run's figures (how far off it was)."""
        pairs = [
            ("chat calls", self.chat_calls, measured.chat_calls),
            ("tokens in", self.input_tokens, measured.input_tokens),
            ("tokens out", self.output_tokens, measured.output_tokens),
            ("embedding requests", self.embedding_requests, measured.embedding_requests),
        ]
        shown = [f"{label} {a:,} vs {b:,}{_off(a, b)}" for label, a, b in pairs]
        return "estimate vs measured: " + ", ".join(shown)

    def __str__(self) -> str:
        return "\n".join(self.lines())


def format_estimate(estimate: Estimate) -> str:
    """The lines of ``estimate``, ready to print."""
    return str(estimate)


def _name(model: Any) -> str:
    if model is None:
        return "offline"
    return str(getattr(model, "identity", "offline")) if is_offline(model) else model_name(model)


def _money(cost: float | None, about: str, missing: str) -> str:
    return missing if cost is None else f"{about}${cost:.4f}"


def _off(estimated: int, measured: int) -> str:
    if measured == 0:
        return ""
    return f" ({(estimated - measured) / measured:+.0%})"
