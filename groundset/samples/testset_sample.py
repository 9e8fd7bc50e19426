"""TestsetSample: one generated question with its grounding, the kind of question it is, and its
identity (a stable id that survives edits by a reviewer)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .._version import __version__
from ..core.hashing import stable_hash
from .turns import ANSWER, REFUSE, ExpectedBehaviour, Turn


class TestsetSample(BaseModel):
    """One grounded question: what to ask, the expected answer, and the chunks that support it.

    ``id`` is the sample's identity: ``create`` computes it once from the contexts and the question as
    generated, and nothing recomputes or checks it later. A person may edit ``user_input`` or
    ``reference`` (and set ``reviewed``, with a ``review_note``; ``groundset review`` also sets ``edited``
    and keeps ``tags``): the id stays, so the edited sample is still the same sample to a refresh, a diff
    and a score history.
    """

    __test__ = False  # not a pytest test class, despite the name
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    user_input: str
    reference: str
    reference_contexts: list[str]  # empty only for a question to decline (expected_behaviour "refuse")
    reference_context_ids: list[str]
    source_documents: list[str]
    synthesizer: str = Field(min_length=1)  # the kind of question: single_hop_specific, out_of_scope, ...
    persona: str = ""
    style: str = ""
    length: str = ""
    terms: list[str] = []
    graph_fingerprint: str = ""
    generator_model: str = ""
    groundset_version: str = __version__
    expected_behaviour: ExpectedBehaviour = ANSWER  # "refuse": the documents do not answer it
    history: list[Turn] = []  # a conversation's earlier turns; this sample is its last
    distractor_contexts: list[str] = []  # near-miss chunks: they share the question's words, not its answer
    distractor_context_ids: list[str] = []
    reviewed: bool = False  # a person checked (and maybe edited) it: a refresh never drops it silently
    review_note: str = ""
    edited: bool = False  # a person changed its question or reference (``groundset review``); it is reviewed
    tags: list[str] = []  # a person's free labels ("critical"): ``score --only tag=critical`` runs them

    @field_validator("user_input", "reference", "reference_contexts")
    @classmethod
    def _not_blank(cls, value: str | list[str]) -> str | list[str]:
        texts = value if isinstance(value, list) else [value]
        blank = [i for i, text in enumerate(texts) if not text.strip()]
        if blank:
            raise ValueError(
                "must not be empty" if isinstance(value, str) else f"empty context(s) at {blank}"
            )
        return value

    @field_validator("source_documents")
    @classmethod
    def _unique_documents(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("must not repeat a document (use TestsetSample.create to deduplicate)")
        return value

    @field_validator("tags")
    @classmethod
    def _plain_tags(cls, value: list[str]) -> list[str]:
        for tag in value:
            if not tag or any(ch.isspace() or ch in ",=" for ch in tag):
                raise ValueError(
                    f"tag {tag!r} must be one word without spaces, commas or '=' "
                    "(e.g. 'critical', 'billing-v2')"
                )
        return list(dict.fromkeys(value))

    @model_validator(mode="after")
    def _ids_match_contexts(self) -> TestsetSample:
        for name in ("reference", "distractor"):
            ids, texts = getattr(self, f"{name}_context_ids"), getattr(self, f"{name}_contexts")
            if len(ids) != len(texts):
                raise ValueError(
                    f"{name}_context_ids has {len(ids)} item(s) but {name}_contexts has {len(texts)}; "
                    "they must pair up one to one"
                )
        if not self.reference_contexts and self.expected_behaviour != REFUSE:
            raise ValueError(
                "reference_contexts must not be empty for a question to answer "
                '(only a sample with expected_behaviour "refuse" has none)'
            )
        return self

    def asked(self) -> str:
        """The question as asked: after a conversation's earlier questions, one per line. What tells two
        samples apart ("And what is its default?" asks something else after each first turn)."""
        return "\n".join([*(turn.user_input for turn in self.history), self.user_input])

    def grounding(self) -> list[tuple[str, str]]:
        """(chunk id, text) of every chunk the sample rests on: its contexts, its earlier turns' and its
        distractors'. A refresh keeps the sample only while all of them are unchanged."""
        pairs = [
            pair
            for turn in self.history
            for pair in zip(turn.reference_context_ids, turn.reference_contexts, strict=True)
        ]
        pairs += zip(self.reference_context_ids, self.reference_contexts, strict=True)
        pairs += zip(self.distractor_context_ids, self.distractor_contexts, strict=True)
        return list(dict.fromkeys(pairs))

    def __hash__(self) -> int:  # equal samples have equal ids; list fields make the default hash fail
        return hash(self.id)

    @staticmethod
    def make_id(reference_contexts: Sequence[str], user_input: str) -> str:
        """Identity of a question over its grounding: regenerating the same question gives the same id."""
        return "s-" + stable_hash({"contexts": list(reference_contexts), "question": user_input}, length=16)

    @classmethod
    def create(
        cls,
        *,
        user_input: str,
        reference: str,
        reference_contexts: Sequence[str],
        reference_context_ids: Sequence[str],
        synthesizer: str,
        source_documents: Iterable[str] = (),
        persona: str = "",
        style: str = "",
        length: str = "",
        terms: Sequence[str] = (),
        graph_fingerprint: str = "",
        generator_model: str = "",
        **kind_fields: Any,
    ) -> TestsetSample:
        """Build a sample with its id computed and its source documents deduplicated in first-seen order.
        ``kind_fields``: expected_behaviour, history, distractor_contexts, distractor_context_ids."""
        history = kind_fields.get("history") or []
        asked = [t["user_input"] if isinstance(t, dict) else t.user_input for t in history]
        return cls(
            id=cls.make_id(reference_contexts, "\n".join([*asked, user_input])),
            user_input=user_input,
            reference=reference,
            reference_contexts=list(reference_contexts),
            reference_context_ids=list(reference_context_ids),
            source_documents=list(dict.fromkeys(source_documents)),
            synthesizer=synthesizer,
            persona=persona,
            style=style,
            length=length,
            terms=list(terms),
            graph_fingerprint=graph_fingerprint,
            generator_model=generator_model,
            **kind_fields,
        )


FIELDS: tuple[str, ...] = tuple(TestsetSample.model_fields)
_KIND_DEFAULTS = {"expected_behaviour": ANSWER, "history": [], "distractor_contexts": []}
_KIND_DEFAULTS |= {"distractor_context_ids": [], "reviewed": False, "review_note": "", "edited": False}
_KIND_DEFAULTS |= {"tags": []}


def sample_record(sample: TestsetSample) -> dict[str, Any]:
    """A sample's JSONL record. The review and question-kind fields are left out while unset, so a file
    written before they existed, or a plain sample nobody reviewed, is written byte for byte as before."""
    data = sample.model_dump(mode="json")
    for name, default in _KIND_DEFAULTS.items():
        if data[name] == default:
            del data[name]
    return data
