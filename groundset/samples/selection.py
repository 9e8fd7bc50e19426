"""Selecting part of a test set to score: ``--only reviewed --only tag=critical`` (``only=`` in Python).

A selection is a list of specs that must all hold (AND); ``tag=`` and ``kind=`` may name several values
joined by commas, any of which will do (OR). It filters a Testset, or an EvaluationDataset whose rows come
from one (a test set read as a dataset, or your own rows that keep the test set's fields), and keeps the
metadata, locations and columns. A selection that leaves no sample is an error, so a CI job that asks for
``tag=critical`` never passes by scoring nothing.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ..core.errors import ConfigError
from .dataset import EvaluationDataset
from .testset import Testset

# Every form a spec takes, and what it keeps: the list an unknown spec is answered with.
FORMS: dict[str, str] = {
    "reviewed": "samples a person reviewed (kept or edited)",
    "unreviewed": "samples nobody has reviewed yet",
    "edited": "samples whose question or reference a person edited",
    "tag=NAME[,NAME...]": "samples with any of these tags",
    "kind=NAME[,NAME...]": "samples of any of these kinds (synthesizer, e.g. single_hop_specific)",
    "document=TEXT": "samples with a source document whose path contains TEXT (taken whole, commas too)",
}
_FLAGS = ("reviewed", "unreviewed", "edited")
_LISTS = ("tag", "kind")  # several values, joined by commas: any of them
_KEYS = (*_FLAGS, *_LISTS, "document")
_EXAMPLES = {"tag": "tag=critical", "kind": "kind=single_hop_specific", "document": "document=billing.md"}
# Names a user may reach for that difflib cannot map: the field's name in the test-set file, say.
_SYNONYMS = {"synthesizer": "kind", "source_documents": "document", "source": "document", "doc": "document"}
_OPPOSITE = {"reviewed": "unreviewed", "unreviewed": "reviewed"}
_NEGATION = re.compile(r"^(?:!|-|not:|not\s+)\s*", re.IGNORECASE)
_TEST_SET_FIELDS = ("id", "synthesizer")  # every test-set record has both; a plain dataset row neither

Data = TypeVar("Data", Testset, EvaluationDataset)


@dataclass(frozen=True)
class _Facts:
    """What a selection reads of one sample."""

    reviewed: bool
    edited: bool
    tags: tuple[str, ...]
    kind: str
    documents: tuple[str, ...]


@dataclass(frozen=True)
class _Spec:
    key: str  # one of _KEYS
    values: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.key}={','.join(self.values)}" if self.values else self.key

    def holds(self, facts: _Facts) -> bool:
        if self.key in _FLAGS:
            return facts.edited if self.key == "edited" else facts.reviewed == (self.key == "reviewed")
        if self.key == "tag":
            return any(tag in facts.tags for tag in self.values)
        if self.key == "kind":
            return facts.kind in self.values
        return any(self.values[0] in document for document in facts.documents)


@dataclass(frozen=True)
class Selection:
    """Specs that must all hold; build one with :func:`parse_selection`. An empty selection keeps all."""

    specs: tuple[_Spec, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.specs)

    def __str__(self) -> str:
        return ", ".join(str(spec) for spec in self.specs) or "all samples"

    def select(self, data: Data) -> Data:
        """The samples of ``data`` (a Testset or an EvaluationDataset) that match, in their order, with
        ``data``'s metadata (or locations and columns). Raises ConfigError when none is left, naming the
        spec that removed the last ones, and when ``data`` is a plain dataset with no test-set fields."""
        if not self.specs:
            return data
        kept = self._positions(data)
        if isinstance(data, Testset):
            return Testset([data[i] for i in kept], data.metadata)
        return EvaluationDataset(
            [data[i] for i in kept],
            locations=[data.locations[i] for i in kept],
            extra_columns=data.extra_columns,
        )

    def describe(self, data: Testset | EvaluationDataset) -> str:
        """One line saying what :meth:`select` keeps of ``data``: ``12 of 40 samples (tag=critical)``.
        Raises as ``select`` does."""
        if not self.specs:
            return f"all {len(data)} samples"
        return f"{len(self._positions(data))} of {len(data)} samples ({self})"

    def _positions(self, data: Testset | EvaluationDataset) -> list[int]:
        facts = _facts(data)
        kept = list(range(len(facts)))
        if not kept:
            raise ConfigError(f"nothing to select ({self}) from: the test set has no samples")
        for number, spec in enumerate(self.specs):
            narrowed = [i for i in kept if spec.holds(facts[i])]
            if not narrowed:
                raise ConfigError(self._nothing_left(number, len(kept), facts))
            kept = narrowed
        return kept

    def _nothing_left(self, number: int, before: int, facts: Sequence[_Facts]) -> str:
        spec, total = self.specs[number], len(facts)
        if number == 0:
            said = f"'{spec}' matches none of the {total} samples"
        else:
            earlier = ", ".join(str(s) for s in self.specs[:number])
            said = f"'{earlier}' keeps {before} of the {total} samples and '{spec}' matches none of those"
        return f"the selection ({self}) leaves no sample to score: {said}; {_what_there_is(spec, facts)}"


def parse_selection(specs: str | Iterable[str] | Selection | None) -> Selection:
    """The selection ``specs`` describe: each one of the forms in ``FORMS``, all of which must hold.
    A single string is one spec. Raises ConfigError naming a spec it cannot read, with the valid forms."""
    if isinstance(specs, Selection):
        return specs
    if specs is None:
        return Selection()
    if isinstance(specs, str):
        specs = [specs]
    return Selection(tuple(_parse(spec) for spec in specs))


def _parse(text: object) -> _Spec:
    if not isinstance(text, str):
        raise ConfigError(f"a selection spec is a string such as 'tag=critical', got {type(text).__name__}")
    key, sep, value = (part.strip() for part in text.strip().partition("="))
    if key in _FLAGS:
        if sep:
            other = f" (or '{_OPPOSITE[key]}')" if key in _OPPOSITE else ""
            raise ConfigError(f"selection {text!r}: {key} takes no value; write '{key}'{other}")
        return _Spec(key)
    if key not in _KEYS:
        raise ConfigError(_unknown(text, key, value))
    if not value:
        raise ConfigError(f"selection {text!r}: {key} needs a value, e.g. '{_EXAMPLES[key]}'")
    if key == "document":
        return _Spec(key, (value,))  # a path may hold a comma: the text is taken whole
    names = [name.strip() for name in value.split(",")]
    if not all(names):
        raise ConfigError(f"selection {text!r}: an empty name between commas; write {key}=a,b")
    odd = [name for name in names if key == "tag" and any(ch.isspace() or ch == "=" for ch in name)]
    if odd:
        raise ConfigError(
            f"selection {text!r}: {odd[0]!r} can never match: a tag is one word without spaces, commas or '='"
        )
    return _Spec(key, tuple(dict.fromkeys(names)))


def _unknown(text: str, key: str, value: str) -> str:
    forms = "\n".join(f"  {form:<20} {meaning}" for form, meaning in FORMS.items())
    negated = _NEGATION.match(text.strip())
    if negated:
        inner = text.strip()[negated.end() :].strip()
        hint = (
            f"there is no negation; write '{_OPPOSITE[inner]}'"
            if inner in _OPPOSITE
            else "there is no negation; name what to keep"
        )
    else:
        lowered = key.lower()
        match = _SYNONYMS.get(lowered) or next(iter(difflib.get_close_matches(lowered, _KEYS, n=1)), None)
        if match is None:
            hint = ""
        elif match in _FLAGS:
            hint = f"did you mean '{match}'?"
        else:
            hint = f"did you mean '{match}={value or 'NAME'}'?"
    return (
        f"unknown selection {text!r}" + (f" ({hint})" if hint else "") + "; select with one of "
        f"(repeat to narrow, all must hold):\n{forms}"
    )


def _what_there_is(spec: _Spec, facts: Sequence[_Facts]) -> str:
    """What the samples do have, for the spec that matched none: the values to choose from."""
    if spec.key in _FLAGS:
        count = sum(spec.holds(f) for f in facts)
        where = "(`groundset review` marks them)" if spec.key != "unreviewed" else ""
        return f"{count} of the {len(facts)} samples in the test set are {spec.key} {where}".rstrip()
    if spec.key == "document":
        found = Counter(document for f in facts for document in f.documents)
        return f"documents in the test set: {_listed(found)}" if found else "no sample names a document"
    if spec.key == "kind":
        found = Counter(f.kind for f in facts)
    else:
        found = Counter(tag for f in facts for tag in f.tags)
        if not found:
            return "no sample has a tag (tag samples with `groundset review`)"
    close = (difflib.get_close_matches(value, list(found), n=1) for value in spec.values)
    near = [match for matches in close for match in matches if match not in spec.values]
    guess = f"did you mean {spec.key}={','.join(dict.fromkeys(near))}? " if near else ""
    return f"{guess}{spec.key}s in the test set: {_listed(found)}"


def _listed(counts: Counter[str], limit: int = 8) -> str:
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{name} ({count})" for name, count in ranked[:limit])
    return shown + (f" and {len(ranked) - limit} more" if len(ranked) > limit else "")


def _facts(data: Testset | EvaluationDataset) -> list[_Facts]:
    if isinstance(data, Testset):
        return [
            _Facts(s.reviewed, s.edited, tuple(s.tags), s.synthesizer, tuple(s.source_documents))
            for s in data
        ]
    if not isinstance(data, EvaluationDataset):
        raise ConfigError(f"a selection filters a Testset or an EvaluationDataset, got {type(data).__name__}")
    plain = [i for i, sample in enumerate(data) if not set(_TEST_SET_FIELDS) <= sample.metadata.keys()]
    if plain:
        fields = " and ".join(_TEST_SET_FIELDS)
        if len(plain) == len(data):
            source = _source(data.locations)
            what = f"{source} is a plain dataset" if source else "these rows are a plain dataset"
            what += f": its rows have no {fields} fields"
        else:
            what = f"these rows have no {fields} fields (the others do): {data.describe(plain, limit=3)}"
        raise ConfigError(
            f"selecting samples (--only, only=) needs a groundset test set, but {what}. Select from the "
            "test set itself, or keep its fields (id, synthesizer, reviewed, edited, tags, source_documents) "
            "in every row"
        )
    return [_row_facts(sample.metadata, where) for sample, where in zip(data, data.locations, strict=True)]


def _source(locations: Sequence[str]) -> str:
    """The file the rows came from (``data.jsonl`` of ``data.jsonl line 3``), or '' when they do not say."""
    heads = {re.sub(r" (?:line|row) \d+$", "", where) for where in locations}
    head = heads.pop() if len(heads) == 1 else ""
    return head if head not in locations else ""


_FLAG = TypeAdapter(bool)
_NAMES = TypeAdapter(list[str])


def _row_facts(metadata: Mapping[str, Any], where: str) -> _Facts:
    """A test-set row's facts from its metadata: read as a test set reads them (a CSV cell holds "true" or a
    JSON list); a field left out has its default, as a test-set file leaves it out when unset."""

    def read(name: str, adapter: TypeAdapter, default: Any) -> Any:
        value = metadata.get(name)
        if value is None or value == "":
            return default
        try:
            if isinstance(value, str) and adapter is _NAMES:
                value = json.loads(value)
            return adapter.validate_python(value)
        except (ValueError, ValidationError):  # JSONDecodeError is a ValueError
            shape = "true or false" if adapter is _FLAG else 'a list of strings (["a", "b"])'
            raise ConfigError(f"{where}: {name} must be {shape}, got {value!r}") from None

    kind = metadata.get("synthesizer")
    if not isinstance(kind, str):
        raise ConfigError(f"{where}: synthesizer must be a string, got {kind!r}")
    return _Facts(
        reviewed=read("reviewed", _FLAG, False),
        edited=read("edited", _FLAG, False),
        tags=tuple(read("tags", _NAMES, [])),
        kind=kind,
        documents=tuple(read("source_documents", _NAMES, [])),
    )
