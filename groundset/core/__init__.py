"""Shared by all parts: prompts, models, the call engine (cache, concurrency, retries, usage), ids."""

from .aio import run_sync
from .cache import CallCache, default_cache_dir
from .engine import CallEngine, configure, get_engine, set_engine
from .errors import (
    ConfigError,
    GroundsetError,
    ModelCallError,
    ModelTimeoutError,
    OfflineUnsupported,
    PromptOutputError,
)
from .hashing import stable_hash
from .models import (
    OFFLINE_LLM,
    OfflineLLM,
    ResolvedModel,
    describe_model,
    is_offline,
    model_identity,
    resolve_embeddings,
    resolve_llm,
)
from .offline_embeddings import HashingEmbeddings, OfflineEmbeddings
from .prompts import Prompt, list_prompts
from .retry import RetryPolicy
from .usage import DEFAULT_PRICES, StageUsage, Usage, stage, track
from .wordllama_embeddings import WordLlamaEmbeddings

__all__ = [
    "DEFAULT_PRICES",
    "OFFLINE_LLM",
    "CallCache",
    "CallEngine",
    "ConfigError",
    "GroundsetError",
    "HashingEmbeddings",
    "ModelCallError",
    "ModelTimeoutError",
    "OfflineEmbeddings",
    "OfflineLLM",
    "OfflineUnsupported",
    "Prompt",
    "PromptOutputError",
    "ResolvedModel",
    "RetryPolicy",
    "StageUsage",
    "Usage",
    "WordLlamaEmbeddings",
    "configure",
    "default_cache_dir",
    "describe_model",
    "get_engine",
    "is_offline",
    "list_prompts",
    "model_identity",
    "resolve_embeddings",
    "resolve_llm",
    "run_sync",
    "set_engine",
    "stable_hash",
    "stage",
    "track",
]
