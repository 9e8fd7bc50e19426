"""The knowledge graph's LLM tasks, each with its offline form.

One call per long document (summary and themes together) and one per chunk (entities,
keyphrases and themes together) keep the build near one call per chunk. Headlines come from
the document's structure; the LLM is asked only for long documents that have none.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..text.entities import EntityExtractor
from ..text.phrases import PhraseModel
from ..text.sentences import split_sentences
from ..text.textrank import textrank_summary


class DocumentText(BaseModel):
    title: str
    text: str = Field(description="the document, possibly shortened")


class Headlines(BaseModel):
    headlines: list[str] = Field(description="section titles, copied exactly as they appear in the text")


class DocumentSummary(BaseModel):
    summary: str = Field(description="3 to 5 sentences")
    themes: list[str] = Field(description="3 to 6 broad topics, 1 to 4 words each")


class ChunkText(BaseModel):
    title: str = Field(description="title of the document the passage comes from")
    section: str = Field(default="", description="heading path of the passage, if any")
    text: str


class ChunkFacts(BaseModel):
    entities: list[str] = Field(
        description="named things: products, components, people, organisations, "
        "code identifiers, file names, metrics, standards"
    )
    keyphrases: list[str] = Field(description="3 to 8 key phrases that say what the passage is about")
    themes: list[str] = Field(description="1 to 4 broad topics, 1 to 4 words each")


class HeadlinesPrompt(Prompt[DocumentText, Headlines]):
    name = "kg.headlines"
    instruction = (
        "You are reading a long technical document that has no formatted headings. List the titles "
        "of its main sections in reading order. Only list a title if a line of the text is exactly "
        "that title; copy such lines verbatim. If the document has no such lines, return an empty list."
    )
    examples = [
        (
            DocumentText(
                title="Backups",
                text="Backups\nWhy back up\nData can be lost when a disk fails.\nHow to restore\n"
                "Stop the service, copy the snapshot back and start it again.",
            ),
            Headlines(headlines=["Why back up", "How to restore"]),
        )
    ]

    def offline(self, data: DocumentText) -> Headlines:
        return Headlines(headlines=[])  # offline, headlines come only from the document's own structure


_WHOLE = re.compile(r"[.!?][\"')\]]*$")


class SummaryPrompt(Prompt[DocumentText, DocumentSummary]):
    name = "kg.summary"
    instruction = (
        "Summarise the document for someone deciding whether it answers their question: say what it "
        "covers and its main points in 3 to 5 plain sentences, using only facts stated in it. Then "
        "give 3 to 6 broad themes it is about, each 1 to 4 words, lower case unless a proper name."
    )
    examples = [
        (
            DocumentText(
                title="Log rotation",
                text="# Log rotation\nThe agent rotates its log file when it reaches 100 MB and keeps "
                "five old files. Rotation can be turned off with the --no-rotate flag. Old files are "
                "compressed with gzip.",
            ),
            DocumentSummary(
                summary="The document explains how the agent rotates its log file. Rotation happens at "
                "100 MB, five old files are kept and compressed with gzip. The --no-rotate flag turns "
                "rotation off.",
                themes=["log rotation", "disk usage", "agent configuration"],
            ),
        )
    ]

    def salvage(self, data: DocumentText, cut: dict[str, Any]) -> DocumentSummary | None:
        """A summary cut off at the length limit keeps its whole sentences (a small model at a low
        ``max_tokens`` writes past it every time), and themes cut off keep the items before the last."""
        summary, themes = cut.get("summary"), cut.get("themes")
        if not isinstance(summary, str):
            return None
        if themes is None:  # cut inside the summary: its last sentence may be unfinished
            sentences = split_sentences(summary)
            if sentences and not _WHOLE.search(sentences[-1]):
                sentences.pop()
            summary, themes = " ".join(sentences), []
        elif isinstance(themes, list):
            themes = [t for t in themes[:-1] if isinstance(t, str)]
        else:
            return None
        return DocumentSummary(summary=summary, themes=themes) if summary.strip() else None

    def offline(self, data: DocumentText) -> DocumentSummary:
        model = PhraseModel().fit([data.text])
        return DocumentSummary(summary=textrank_summary(data.text), themes=model.themes(data.text, k=5))


class ChunkFactsPrompt(Prompt[ChunkText, ChunkFacts]):
    name = "kg.chunk_facts"
    instruction = (
        "Read the passage from a technical document. Extract (1) entities: the specific named things "
        "it mentions, such as products, components, organisations, people, code identifiers, file "
        "names, metric names and standards, written as in the text; (2) keyphrases: 3 to 8 short "
        "phrases that say what the passage is about; (3) themes: 1 to 4 broad topics. Use only what "
        "the passage itself says; the title and section are context."
    )
    examples = [
        (
            ChunkText(
                title="Storage",
                section="Storage > Retention",
                text="The server deletes blocks older than the retention period, 15 days by default. "
                "Set --storage.tsdb.retention.time to change it; the TSDB compacts blocks every two hours.",
            ),
            ChunkFacts(
                entities=["--storage.tsdb.retention.time", "TSDB"],
                keyphrases=["retention period", "block deletion", "block compaction", "15 days default"],
                themes=["data retention", "storage"],
            ),
        )
    ]

    def offline(self, data: ChunkText) -> ChunkFacts:
        model = PhraseModel().fit([data.text])
        return ChunkFacts(
            entities=EntityExtractor().extract(data.text),
            keyphrases=model.keyphrases(data.text, k=8),
            themes=model.themes(data.text, k=4),
        )
