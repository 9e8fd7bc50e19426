"""Files -> Documents: walking a docs folder, decoding, HTML text, and the report of every problem file."""

from .loader import (
    DuplicateFile,
    LoadReport,
    LoadResult,
    RepairedFile,
    SkippedFile,
    candidate_files,
    load_documents,
)

__all__ = [
    "DuplicateFile",
    "LoadReport",
    "LoadResult",
    "RepairedFile",
    "SkippedFile",
    "candidate_files",
    "load_documents",
]
