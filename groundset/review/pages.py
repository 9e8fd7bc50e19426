"""The review's two pages, rendered on the server: one sample at a time, and the summary.

All document and sample text enters the page through ``esc`` (the report's helpers); the page loads one
script and one style sheet from the server itself, and nothing from anywhere else. Actions are buttons
the script sends as JSON with the page's CSRF token; every button names its keyboard shortcut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from ..kg.graph import KnowledgeGraph
from ..scoring.report.page import attrs, el, esc, table
from .evidence import resting_spans, word_diff
from .store import NEEDS_REVIEW, REJECTED, STATUSES, Item
from .summary import ReviewSummary

__all__ = ["Filters", "Sources", "sample_page", "summary_page"]

SHORTCUTS = (
    ("k", "keep (again: take back)"),
    ("e", "edit question and reference (Ctrl+Enter saves, Esc cancels)"),
    ("r", "reject, with a reason (Enter confirms)"),
    ("t", "add a tag (Enter adds)"),
    ("n", "write a note (Ctrl+Enter saves)"),
    ("j / →", "next sample"),
    ("h / ←", "previous sample"),
    ("s", "summary"),
    ("?", "show or hide these shortcuts"),
)
REJECT_REASONS = (
    "question unclear or not one a user would ask",
    "reference wrong or incomplete",
    "reference not supported by the contexts",
    "duplicate of another sample",
    "not what its kind promises",
)


@dataclass(frozen=True)
class Filters:
    """What the page shows: samples of one status, kind, tag and document (empty: any)."""

    status: str = ""
    kind: str = ""
    tag: str = ""
    document: str = ""

    @classmethod
    def of(cls, params: Mapping[str, str]) -> Filters:
        return cls(*(params.get(name, "").strip() for name in ("status", "kind", "tag", "document")))

    def matches(self, item: Item) -> bool:
        sample = item.sample
        return (
            (not self.status or item.status == self.status)
            and (not self.kind or sample.synthesizer == self.kind)
            and (not self.tag or self.tag in sample.tags)
            and (not self.document or self.document in sample.source_documents)
        )

    def query(self, **extra: str) -> str:
        values = {k: v for k, v in {**self.__dict__, **extra}.items() if v}
        return "?" + urlencode(values) if values else ""


class Sources:
    """Where a context comes from: its document (title and path) and section, read from the graph when
    the review was given one (``--kg``)."""

    def __init__(self, kg: KnowledgeGraph | None = None) -> None:
        self.kg = kg

    def of(self, node: str) -> str:
        if self.kg is None or node not in self.kg:
            return ""
        data = self.kg.get(node)
        document = self.kg.get(data["document"]) if data.get("document", "") in self.kg else {}
        title = document.get("title") or ""
        where = data.get("source") or ""
        section = data.get("section") or ""
        parts = [f"{title} ({where})" if title and title != where else where, section]
        return " › ".join(p for p in parts if p)


def page(title: str, body: str, token: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<meta name='csrf-token' content='{esc(token)}'>\n"
        f"<title>{esc(title)}</title>\n"
        "<link rel='stylesheet' href='/static/review.css'>\n"
        "<script src='/static/review.js' defer></script>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def sample_page(
    name: str,
    items: Sequence[Item],
    shown: Sequence[Item],
    current: Item | None,
    filters: Filters,
    sources: Sources,
    token: str,
) -> str:
    """The page of ``current`` among the ``shown`` items (those the filters let through)."""
    header = _header(name, items, shown, current, filters)
    if current is None:
        empty = "No sample matches these filters." if items else "This test set has no samples."
        return page(f"review: {name}", header + el("p", esc(empty), class_="empty", id="empty"), token)
    index = [i.sample.id for i in shown].index(current.sample.id)
    before = shown[index - 1].sample.id if index > 0 else ""
    after = shown[index + 1].sample.id if index + 1 < len(shown) else ""
    nav = el(
        "nav",
        _link("← previous", filters.query(at=before), "previous", before)
        + el("span", esc(f"{index + 1} of {len(shown)}"), id="position")
        + _link("next →", filters.query(at=after), "next", after),
        class_="pager",
    )
    body = header + nav + _sample(current, sources, filters.query(at=after) if after else "")
    return page(f"review: {name}", body, token)


def _link(label: str, href: str, id_: str, target: str) -> str:
    if not target:
        return el("span", esc(label), class_="off", id=id_)
    return el("a", esc(label), href="/" + href, id=id_)


def _header(
    name: str, items: Sequence[Item], shown: Sequence[Item], current: Item | None, filters: Filters
) -> str:
    kinds = sorted({i.sample.synthesizer for i in items})
    tags = sorted({t for i in items for t in i.sample.tags})
    documents = sorted({d for i in items for d in i.sample.source_documents})
    form = el(
        "form",
        _select("status", STATUSES, filters.status)
        + _select("kind", kinds, filters.kind)
        + _select("tag", tags, filters.tag)
        + _select("document", documents, filters.document)
        + el("button", "filter", type="submit", id="apply-filters")
        + el("a", "clear", href="/", id="clear-filters"),
        method="get",
        action="/",
        id="filters",
    )
    links = el("a", "summary (s)", href="/summary", id="summary-link") + el(
        "button", "shortcuts (?)", type="button", id="help-toggle"
    )
    help_rows = "".join(el("tr", el("td", el("kbd", esc(k))) + el("td", esc(v))) for k, v in SHORTCUTS)
    help_box = el("table", help_rows, id="help", hidden="hidden", class_="help")
    count = el("span", esc(f"{len(shown)} of {len(items)} samples"), class_="muted", id="count")
    title = el("h1", "groundset review " + el("span", esc(name), class_="muted"))
    return el("header", title + el("div", form + count + links, class_="bar") + help_box)


def _select(name: str, values: Sequence[str], chosen: str) -> str:
    options = el("option", esc(f"any {name}"), value="")
    options += "".join(
        el("option", esc(v), value=v, **({"selected": "selected"} if v == chosen else {})) for v in values
    )
    return el(
        "label",
        el("span", esc(name), class_="sr") + f"<select{attrs(name=name, id=f'f-{name}')}>{options}</select>",
    )


def _sample(item: Item, sources: Sources, next_query: str) -> str:
    sample = item.sample
    status = "will be restored" if item.restoring else item.status
    meta = el(
        "div",
        el("span", esc(status), class_=f"status s-{item.status.replace(' ', '-')}", id="status")
        + _fact("kind", sample.synthesizer)
        + _fact("persona", sample.persona)
        + _fact("style", sample.style)
        + _fact("length", sample.length)
        + _fact("id", sample.id),
        class_="meta",
    )
    tags = "".join(
        el(
            "span",
            esc(t) + el("button", "×", type="button", class_="untag", title=f"remove tag {t}", data_tag=t),
            class_="tag",
        )
        for t in sample.tags
    )
    turns = "".join(
        el("div", el("div", esc(f"earlier question {n}"), class_="label") + el("div", esc(t.user_input)))
        + el("div", el("div", esc("its answer"), class_="label") + el("div", esc(t.reference)), class_="turn")
        for n, t in enumerate(sample.history, start=1)
    )
    text = el("div", esc("question"), class_="label") + el("div", esc(sample.user_input), id="question")
    text += el("div", esc("reference"), class_="label") + el("div", esc(sample.reference), id="reference")
    if sample.expected_behaviour != "answer":
        declines = "expected: the assistant declines (the documents do not answer this)"
        text += el("p", esc(declines), class_="muted")
    editor = el(
        "form",
        el("label", esc("question"), for_="edit-question")
        + el("textarea", esc(sample.user_input), id="edit-question", rows="3")
        + el("label", esc("reference"), for_="edit-reference")
        + el("textarea", esc(sample.reference), id="edit-reference", rows="6")
        + el("button", "save (Ctrl+Enter)", type="submit")
        + el("button", "cancel (Esc)", type="button", class_="cancel"),
        id="editor",
        hidden="hidden",
    )
    reasons = el("datalist", "".join(el("option", esc(r), value=r) for r in REJECT_REASONS), id="reasons")
    reason = el("input", id="reject-reason", list="reasons", autocomplete="off", placeholder="a reason")
    rejecter = _form("rejecter", "why reject it?", "reject-reason", reason + reasons, "reject (Enter)")
    tag_input = el("input", id="tag-input", autocomplete="off", placeholder="critical")
    tagger = _form("tagger", "tag", "tag-input", tag_input, "add (Enter)")
    note_input = el("textarea", esc(sample.review_note), id="note-input", rows="2")
    noter = _form("noter", "note", "note-input", note_input)
    if item.place == "rejected":
        actions = el("button", "restore", type="button", id="restore")
    else:
        keep = "take back keep (k)" if _is_kept(item) else "keep (k)"
        actions = (
            el("button", esc(keep), type="button", id="keep", class_="primary")
            + el("button", "edit (e)", type="button", id="edit")
            + el("button", "reject (r)", type="button", id="reject")
        )
    actions += el("button", "tag (t)", type="button", id="tag")
    actions += el("button", "note (n)", type="button", id="note")
    note = el("p", esc("note: ") + el("span", esc(sample.review_note), id="note-text"), class_="reviewnote")
    card = el(
        "article",
        meta
        + el("div", tags, id="tags", class_="tags")
        + turns
        + text
        + (note if sample.review_note else "")
        + el("div", actions, class_="actions")
        + editor
        + rejecter
        + tagger
        + noter
        + el("p", "", id="message", role="status")
        + _why(item)
        + _contexts(item, sources),
        id="sample",
        data_id=sample.id,
        data_next=("/" + next_query) if next_query else "",
        data_note=sample.review_note,
    )
    return card


def _form(id_: str, label: str, target: str, field: str, save: str = "save (Ctrl+Enter)") -> str:
    """A hidden form of one field (``target``: its id), opened by its key."""
    return el(
        "form",
        el("label", esc(label), for_=target)
        + field
        + el("button", esc(save), type="submit")
        + el("button", "cancel (Esc)", type="button", class_="cancel"),
        id=id_,
        hidden="hidden",
    )


def _is_kept(item: Item) -> bool:
    return item.restoring or (item.place == "testset" and item.sample.reviewed)


def _fact(name: str, value: str) -> str:
    if not value:
        return ""
    return el("span", el("b", esc(name)) + " " + esc(value), class_="fact")


def _why(item: Item) -> str:
    """Why a sample is out of the test set: its rejection, or the refresh that sent it to review and what
    changed in its contexts."""
    record = item.record
    if item.status == REJECTED:
        said = f"rejected {record.get('rejected_at', '')}: {record.get('reason', '')}"
        return el("div", esc(said), class_="why rejected", id="why")
    if item.status != NEEDS_REVIEW:
        return ""
    changed = ", ".join([*(record.get("changed_documents") or []), *(record.get("removed_documents") or [])])
    head = f"sent to review by a refresh: {record.get('reason', '')}" + (f" ({changed})" if changed else "")
    parts = [el("div", esc(head))]
    texts = dict(zip(item.sample.reference_context_ids, item.sample.reference_contexts, strict=True))
    for suggestion in record.get("current_contexts") or []:
        before = texts.get(suggestion.get("replaces", ""), "")
        after = str(suggestion.get("text", ""))
        pieces = "".join(
            esc(text) if op == "same" else el("del" if op == "removed" else "ins", esc(text))
            for op, text in word_diff(before, after)
        )
        label = f"what its context {suggestion.get('replaces', '')} reads now (the closest chunk)"
        parts.append(el("div", esc(label), class_="label") + el("div", pieces, class_="text diff"))
    if not record.get("current_contexts"):
        gone = "its documents were removed: nothing stands in their place"
        parts.append(el("p", esc(gone), class_="muted"))
    return el("div", "".join(parts), class_="why review", id="why")


def _contexts(item: Item, sources: Sources) -> str:
    sample = item.sample
    documents = ", ".join(sample.source_documents)
    blocks = []
    references = zip(sample.reference_context_ids, sample.reference_contexts, strict=True)
    for n, (node, context) in enumerate(references, 1):
        spans = resting_spans(context, sample.reference)
        marked = "".join(el("mark", esc(s.text)) if s.marked else esc(s.text) for s in spans)
        blocks.append(_context(f"context {n}", sources.of(node) or documents, marked, "context"))
    distractors = zip(sample.distractor_context_ids, sample.distractor_contexts, strict=True)
    for n, (node, context) in enumerate(distractors, 1):
        label = f"distractor {n}: shares the question's words, must not answer it"
        blocks.append(_context(label, sources.of(node), esc(context), "context distractor"))
    legend = el("p", "highlighted: " + el("mark", "what the reference rests on"), class_="muted legend")
    return el("div", legend + "".join(blocks), id="contexts")


def _context(label: str, where: str, body: str, class_: str) -> str:
    head = el("div", esc(label) + el("span", esc(where), class_="where"), class_="label")
    return el("section", head + el("div", body, class_="text"), class_=class_)


def summary_page(name: str, summary: ReviewSummary, token: str) -> str:
    """Counts by status, per kind and per document, and the kept share of decided samples."""
    share = summary.kept_share()
    headline = (
        f"{summary.decided} of {sum(summary.total.values())} samples decided; kept {share:.0%} "
        "(as generated or after an edit)"
        if share is not None
        else "no sample decided yet"
    )
    headers = ["", *STATUSES, "kept share"]

    def row(group: str, counts: Mapping[str, int]) -> list[str]:
        kept = summary.kept_share(counts)
        return [group, *(str(counts.get(s, 0)) for s in STATUSES), "–" if kept is None else f"{kept:.0%}"]

    def by(groups: Mapping[str, Mapping[str, int]], id_: str) -> str:
        rows = [row(esc(group), groups[group]) for group in sorted(groups)]
        return table(headers, rows, id_=id_, total=row(el("b", "all"), summary.total))

    reasons = [[esc(r), str(c)] for r, c in summary.rejected_reasons.most_common()]
    back = el("div", el("a", "← back to the samples", href="/", id="back"), class_="bar")
    body = (
        el("header", el("h1", "groundset review " + el("span", esc(name), class_="muted")) + back)
        + el("p", esc(headline), id="headline", class_="headline")
        + el("h2", "by kind")
        + by(summary.by_kind, "by-kind")
        + el("h2", "by document")
        + by(summary.by_document, "by-document")
    )
    if reasons:
        body += el("h2", "why samples were rejected") + table(["reason", "samples"], reasons, id_="reasons")
    return page(f"review summary: {name}", body, token)
