"""Semantic offline embeddings: WordLlama's static 256-d token vectors, read from its wheel.

The ``wordllama`` wheel ships the default model ("l2_supercat": a 32k Llama-2 token vocabulary,
256-d) and its tokenizer. Its own loader can download from Hugging Face (and looks for the
tokenizer under a folder the wheel does not ship), and importing the package configures the
root logger, so neither is used: the files are located with ``importlib.util.find_spec`` (which
does not import the package) and read with ``safetensors`` and ``tokenizers``, both purely local.

A text's vector is the normalised mean of its token vectors, as in ``WordLlamaInference.embed``
(no special tokens, no truncation, 256 dimensions so no Matryoshka cut, dense not binary). Each
row is summed on its own (a sparse count row times the matrix), so a text gets the same bytes
alone or in any batch, in any process.
"""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .offline_embeddings import OfflineEmbeddings

MODEL = "l2_supercat"
DIMENSION = 256
WEIGHTS_FILE = f"weights/{MODEL}_{DIMENSION}.safetensors"
TOKENIZER_FILE = f"tokenizers/{MODEL}_tokenizer_config.json"
TENSOR_KEY = "embedding.weight"
DEFAULT_BATCH_SIZE = 256
INSTALL_HINT = "install it with `pip install 'wordllama>=0.4'`, or use the 'offline:hashing' embeddings"


@dataclass(frozen=True)
class WordLlamaModel:
    """The token embedding matrix (float32, vocab x 256) and the tokenizer that indexes it."""

    matrix: np.ndarray
    tokenizer: Any  # tokenizers.Tokenizer

    @classmethod
    def from_package(cls) -> WordLlamaModel:
        """Read the files shipped in the installed ``wordllama`` wheel; never downloads."""
        from safetensors import safe_open
        from tokenizers import Tokenizer

        root = package_dir()
        weights, vocab = root / WEIGHTS_FILE, root / TOKENIZER_FILE
        for path in (weights, vocab):
            if not path.is_file():
                raise FileNotFoundError(
                    f"WordLlamaEmbeddings: {path} is missing from the installed wordllama package; "
                    "reinstall it with `pip install --force-reinstall 'wordllama>=0.4'`"
                )
        with safe_open(str(weights), framework="np") as tensors:
            matrix = np.ascontiguousarray(tensors.get_tensor(TENSOR_KEY), dtype=np.float32)
        tokenizer = Tokenizer.from_file(str(vocab))
        tokenizer.no_padding()  # padding and truncation would change which tokens are averaged
        tokenizer.no_truncation()
        if matrix.shape != (tokenizer.get_vocab_size(), DIMENSION):
            raise ValueError(
                f"WordLlamaEmbeddings: {weights.name} has shape {matrix.shape}, expected "
                f"({tokenizer.get_vocab_size()}, {DIMENSION}); reinstall `wordllama>=0.4`"
            )
        matrix.setflags(write=False)
        return cls(matrix, tokenizer)

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids per text; empty or whitespace-only texts get none (they embed to zero)."""
        ids: list[list[int]] = [[] for _ in texts]
        wordy = [i for i, text in enumerate(texts) if text.strip()]
        encoded = self.tokenizer.encode_batch([texts[i] for i in wordy], add_special_tokens=False)
        for i, encoding in zip(wordy, encoded, strict=True):
            ids[i] = encoding.ids
        return ids

    def embed(self, texts: list[str]) -> np.ndarray:
        """(n, 256) float32 rows: token-vector sums scaled to unit length (zero rows stay zero)."""
        ids = self.token_ids(texts)
        lengths = np.fromiter((len(row) for row in ids), dtype=np.int64, count=len(ids))
        indptr = np.concatenate(([0], np.cumsum(lengths)))
        flat = np.fromiter((t for row in ids for t in row), dtype=np.int64, count=int(indptr[-1]))
        np.clip(flat, 0, self.matrix.shape[0] - 1, out=flat)  # as WordLlama does for stray ids
        counts = sp.csr_matrix(
            (np.ones(flat.size, dtype=np.float32), flat, indptr), shape=(len(ids), self.matrix.shape[0])
        )
        sums = np.asarray(counts @ self.matrix, dtype=np.float32)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        return np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)


def package_dir() -> Path:
    """The installed ``wordllama`` package folder, found without importing (running) the package."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"WordLlamaEmbeddings needs the `wordllama` package: {INSTALL_HINT}")
    return Path(next(iter(spec.submodule_search_locations)))


_lock = threading.Lock()
_loaded: WordLlamaModel | None = None


def shared_model() -> WordLlamaModel:
    """The process-wide model, read on first use only (about 0.2 s and 33 MB)."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = WordLlamaModel.from_package()
    return _loaded


class WordLlamaEmbeddings(OfflineEmbeddings):
    """A LangChain ``Embeddings`` over WordLlama's bundled static embeddings (256-d, L2-normalised).

    Semantic (synonyms and paraphrases land close), deterministic, thousands of texts per second
    on a CPU, and offline. Empty or whitespace-only text embeds to the zero vector.
    """

    dimension = DIMENSION
    # Measured on the Prometheus docs (~1,000-char chunks): 0.55 lets ~1.3% of random pairs and ~half
    # of adjacent pairs through; reworded questions reach 0.95 while different claims stay below it.
    similarity_threshold = 0.55
    duplicate_threshold = 0.95

    def __init__(self, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"WordLlamaEmbeddings: batch_size must be an int >= 1, got {batch_size!r}")
        self.batch_size = batch_size

    @property
    def identity(self) -> str:
        return f"offline:wordllama-{DIMENSION}"

    def embed_matrix(self, texts: list[str]) -> np.ndarray:
        """Embed many texts at once as an (n, 256) L2-normalised float32 matrix, in batches."""
        texts = list(texts)
        bad = [type(t).__name__ for t in texts if not isinstance(t, str)]
        if bad:
            raise TypeError(f"WordLlamaEmbeddings: texts must be strings, got {bad[0]}")
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        model = shared_model()
        for start in range(0, len(texts), self.batch_size):
            out[start : start + self.batch_size] = model.embed(texts[start : start + self.batch_size])
        return out

    def __repr__(self) -> str:
        return f"WordLlamaEmbeddings(batch_size={self.batch_size})"
