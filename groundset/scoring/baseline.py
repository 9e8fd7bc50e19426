"""The baseline RAG: BM25 over the knowledge graph's chunks, answered by the LLM or, offline, extractively.

It gives every user a working end-to-end run with no setup, and a reference point: a system of
theirs that scores below this one has a problem worth looking at.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..core.engine import CallEngine, get_engine
from ..core.errors import ConfigError
from ..core.models import describe_model, is_offline, resolve_llm
from ..core.prompts import Prompt
from ..kg.graph import KnowledgeGraph, NodeKind
from ..text.language import detect_language
from ..text.lexical import stemmed_words
from ..text.plaintext import plain_text
from ..text.sentences import split_sentences
from .bm25 import BM25Index
from .targets import History, RagAnswer, conversation_text

NOT_FOUND = "The documents do not say."
EXTRACT_SENTENCES = 2
MIN_SENTENCE_WORDS = 4


class RagQuestion(BaseModel):
    question: str = Field(description="the user's question")
    contexts: list[str] = Field(description="retrieved passages, best first")


class RagReply(BaseModel):
    answer: str = Field(description="the answer, from the passages only")


class BaselineAnswerPrompt(Prompt[RagQuestion, RagReply]):
    """Answer from the retrieved passages only; offline, the passages' sentences that best match."""

    name = "baseline.answer"
    instruction = (
        "You answer questions about a set of documents. Use only the passages given with the "
        "question; do not add knowledge of your own. Answer in the language of the question, in one to "
        "three sentences, and keep names, numbers and settings exactly as the passages write them. If the "
        f"passages do not contain the answer, reply exactly: {NOT_FOUND}"
    )
    examples = [
        (
            RagQuestion(
                question="How often does the scheduler retry a failed job?",
                contexts=[
                    "A failed job is retried up to three times, with a one-minute pause between tries.",
                    "Jobs are listed on the dashboard with their last status.",
                ],
            ),
            RagReply(answer="Up to three times, pausing one minute between tries."),
        ),
        (
            RagQuestion(
                question="Which database does the scheduler store jobs in?",
                contexts=["Jobs are listed on the dashboard with their last status."],
            ),
            RagReply(answer=NOT_FOUND),
        ),
    ]

    def offline(self, data: RagQuestion) -> RagReply:
        return RagReply(answer=extract_answer(data.question, data.contexts))


def extract_answer(question: str, contexts: list[str], *, sentences: int = EXTRACT_SENTENCES) -> str:
    """The sentences of ``contexts`` sharing the most (rare) words with the question, best first.

    Rarity is counted over the retrieved sentences themselves, so a word every passage repeats (the
    product's name) weighs little and the words that single out the answer weigh most.
    """
    lang = detect_language(question)
    asked = set(stemmed_words(question, lang))
    found: list[tuple[str, set[str]]] = []
    for context in contexts:
        for line in plain_text(context).split("\n"):
            for sentence in split_sentences(line, lang):
                terms = set(stemmed_words(sentence, lang))
                if len(sentence.split()) >= MIN_SENTENCE_WORDS or (terms and lang in ("zh", "ja")):
                    found.append((sentence.strip(), terms))
    if not asked or not found:
        return NOT_FOUND
    frequency = Counter(term for _, terms in found for term in terms)
    weight = {term: 1.0 / frequency[term] for term in asked if frequency[term]}
    scored = [
        (sum(weight.get(term, 0.0) for term in terms & asked), -position, sentence)
        for position, (sentence, terms) in enumerate(found)
    ]
    best = sorted((s for s in scored if s[0] > 0), reverse=True)
    chosen: list[str] = []
    for _, _, sentence in best:
        if sentence not in chosen:
            chosen.append(sentence)
        if len(chosen) == sentences:
            break
    return " ".join(chosen) if chosen else NOT_FOUND


class BaselineRAG:
    """Retrieve the ``top_k`` chunks by BM25, answer from them; contexts come with their chunk ids, so the
    ID-based retrieval metrics score the retriever against a generated test set's reference chunks."""

    def __init__(
        self,
        kg: KnowledgeGraph | str | Path,
        *,
        top_k: int = 5,
        llm: Any = None,
        engine: CallEngine | None = None,
    ) -> None:
        if not isinstance(top_k, int) or top_k < 1:
            raise ConfigError(f"baseline: top_k must be an integer >= 1, got {top_k!r}")
        self.kg = kg if isinstance(kg, KnowledgeGraph) else KnowledgeGraph.load(kg)
        self.chunk_ids = self.kg.nodes(NodeKind.CHUNK)
        if not self.chunk_ids:
            raise ConfigError("baseline: the knowledge graph has no chunks to retrieve from")
        self.top_k = top_k
        self.llm = resolve_llm(llm).model
        self.engine = engine
        self.prompt = BaselineAnswerPrompt()
        texts = [str(self.kg.get(node).get("text", "")) for node in self.chunk_ids]
        self.index = BM25Index(texts, [self._language(node) for node in self.chunk_ids])
        mode = "extractive, offline" if is_offline(self.llm) else f"answered by {describe_model(self.llm)}"
        self.name = f"baseline (BM25 top_k={top_k}, {mode})"

    def _language(self, node: str) -> str | None:
        data = self.kg.get(node)
        language = data.get("language")
        if not language and data.get("document") in self.kg:
            language = self.kg.get(data["document"]).get("language")
        return language or None

    def retrieve(self, question: str, k: int | None = None) -> list[str]:
        """The ids of the best ``k`` (default ``top_k``) chunks for the question, best first."""
        found = self.index.search(question, k or self.top_k, detect_language(question))
        return [self.chunk_ids[i] for i, _ in found]

    async def answer(self, question: str, history: History | None = None) -> RagAnswer:
        """A follow-up (``history``: the earlier turns) is retrieved with the earlier questions too, since
        "and what is its default?" names nothing, and answered with the conversation written out."""
        earlier = [str(m.get("content", "")) for m in history or () if m.get("role") == "user"]
        ids = self.retrieve(" ".join([*earlier, question, question]) if earlier else question)
        contexts = [str(self.kg.get(node)["text"]) for node in ids]
        if not contexts:
            return RagAnswer(response=NOT_FOUND, retrieved_contexts=[], retrieved_context_ids=[])
        asked = question
        if history:  # offline, the extract matches the questions' words, not the earlier answers'
            offline = is_offline(self.llm)
            asked = " ".join([*earlier, question]) if offline else conversation_text(question, history)
        reply = await self.prompt.run(
            self.llm,
            RagQuestion(question=asked, contexts=contexts),
            engine=self.engine or get_engine(),
            stage="target.answer",
        )
        return RagAnswer(response=reply.answer, retrieved_contexts=contexts, retrieved_context_ids=ids)

    def __repr__(self) -> str:
        return f"BaselineRAG({len(self.chunk_ids)} chunks, top_k={self.top_k})"
