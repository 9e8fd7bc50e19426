"""groundset: docs folder -> knowledge graph -> grounded RAG test set -> scores. Offline by default.

The parts (kg, personas, synthesizers, scoring) are imported on first use of one of their names,
so `import groundset` and the CLI start fast.
"""

from importlib import import_module
from typing import Any

from ._version import __version__
from .core import (
    OFFLINE_LLM,
    CallEngine,
    ConfigError,
    GroundsetError,
    HashingEmbeddings,
    ModelCallError,
    ModelTimeoutError,
    OfflineUnsupported,
    Prompt,
    PromptOutputError,
    RetryPolicy,
    Usage,
    WordLlamaEmbeddings,
    configure,
    get_engine,
    list_prompts,
    resolve_embeddings,
    resolve_llm,
    stage,
    track,
)

_LAZY = {
    "KnowledgeGraph": "kg",
    "load_documents": "documents",
    "build_knowledge_graph": "kg",
    "default_transforms": "kg",
    "apply_transforms": "kg",
    "update_kg": "kg",
    "aupdate_kg": "kg",
    "Persona": "personas",
    "generate_personas": "personas",
    "load_personas": "personas",
    "TestsetGenerator": "synthesizers",
    "refresh_testset": "synthesizers",
    "arefresh_testset": "synthesizers",
    "Testset": "samples",
    "TestsetSample": "samples",
    "EvaluationDataset": "samples",
    "SingleTurnSample": "samples",
    "MultiTurnSample": "samples",
    "evaluate": "scoring",
    "aevaluate": "scoring",
    "score_rag": "scoring",
    "ascore_rag": "scoring",
    "BaselineRAG": "scoring",
    "RagAnswer": "scoring",
    "HttpTarget": "scoring",
    "EvaluationResult": "scoring",
    "compare_runs": "scoring",
}


def __getattr__(name: str) -> Any:
    part = _LAZY.get(name)
    if part is None:
        raise AttributeError(f"module 'groundset' has no attribute {name!r}")
    value = getattr(import_module(f".{part}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "OFFLINE_LLM",
    "CallEngine",
    "ConfigError",
    "GroundsetError",
    "HashingEmbeddings",
    "ModelCallError",
    "ModelTimeoutError",
    "OfflineUnsupported",
    "Prompt",
    "PromptOutputError",
    "RetryPolicy",
    "Usage",
    "__version__",
    "configure",
    "get_engine",
    "list_prompts",
    "resolve_embeddings",
    "resolve_llm",
    "stage",
    "track",
    "WordLlamaEmbeddings",
    *_LAZY,
]
