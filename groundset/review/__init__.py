"""``groundset review``: a local page to curate a generated test set, one sample at a time.

``store`` reads and writes the test set and the files beside it (each action atomically, under a lock);
``evidence`` finds what the reference rests on and what changed; ``summary`` counts; ``pages`` renders;
``server`` serves it on 127.0.0.1.
"""

from .pages import Filters, Sources
from .server import create_app, running
from .store import ReviewConflict, ReviewStore, UnknownSample
from .summary import ReviewSummary, summarise

__all__ = [
    "Filters",
    "ReviewConflict",
    "ReviewStore",
    "ReviewSummary",
    "Sources",
    "UnknownSample",
    "create_app",
    "running",
    "summarise",
]
