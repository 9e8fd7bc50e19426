"""Build labelled judge pairs from the shared corpora, by rules that share nothing with the judges.

Writes tests/data/judges/corpora/{dev,test}/{faithfulness,answer_relevancy,context_relevance,
answer_correctness}.jsonl: pairs of a ``better`` and a ``worse`` sample, with a ``made`` line saying how the
pair was made. The half is fixed by a hash of the page's text (a page copied into two corpora lands in one
half), so no page gives pairs to both. The judges are tuned on ``dev``; ``test`` is for the report.

Where the questions and answers come from: a section of a page whose heading can be read as a question
(a heading that is a question; "Install X" -> "How do I install X?"; any other heading -> "What should I
know about X in <product>?"), answered by the first prose paragraph under that heading (one to three
sentences, code, lists and tables left out). Nothing here uses groundset's fact patterns, support judge or
embeddings: only headings, paragraphs, sentence splitting and the edits below.

- faithfulness: contexts = the section's prose; ``better`` = the answer's sentences as written; ``worse`` =
  the same with one change: a number, a negation, a name or code term swapped for one from another
  section of the same page, or a sentence added from a page of another corpus.
- answer_relevancy: ``better`` = the answer; ``worse`` = an evasive reply that names the topic, the answer
  of another section of the same page, or the answer of another page of the corpus.
- context_relevance: ``better`` contexts = the section's prose; ``worse`` = the prose of another section
  of the same page that does not repeat the answer, or the section's prose followed by two other sections
  of the page (diluted).
- answer_correctness: reference = the answer; ``better`` = the answer's sentences in another order or with
  the paragraph's next sentence added; ``worse`` = the answer with one fact changed (as for faithfulness)
  or another section's answer.

Run: .venv/bin/python benchmarks/judge_sets.py [--per-corpus 60]   (deterministic; rewrites the files)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from groundset.documents import load_documents  # noqa: E402
from groundset.text.markdown import sections  # noqa: E402
from groundset.text.sentences import split_sentences  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
OUT = ROOT / "tests" / "data" / "judges" / "corpora"
PRODUCTS = {
    "prometheus-docs": "Prometheus",
    "requests-docs": "Requests",
    "fastapi-tutorial": "FastAPI",
    "handbook": "the company handbook",
    "de-docs": "Vite",
}
# ../shared/corpora/messy is left out: its readable pages are byte copies of Prometheus pages (already in),
# the rest are made-up stress files ("Text at level 3 about storage").
SKIP_HEADINGS = {
    "recap",
    "details",
    "more info",
    "summary",
    "introduction",
    "overview",
    "next steps",
    "examples",
    "example",
    "notes",
    "note",
    "see also",
    "licensing",
    "license",
    "code of conduct",
    "technical details",
    "table of contents",
    "contents",
    "resources",
    "references",
    "links",
    "faq",
    "related",
    "tip",
    "info",
    "zusammenfassung",
    "einführung",
    "übersicht",
    "beispiel",
    "beispiele",
    "hinweis",
    "weitere informationen",
}
IMPERATIVES = {
    "access",
    "add",
    "avoid",
    "build",
    "call",
    "change",
    "check",
    "choose",
    "combine",
    "configure",
    "connect",
    "create",
    "customize",
    "declare",
    "define",
    "deploy",
    "disable",
    "download",
    "enable",
    "get",
    "handle",
    "import",
    "include",
    "install",
    "make",
    "migrate",
    "mount",
    "override",
    "pass",
    "raise",
    "read",
    "receive",
    "return",
    "run",
    "send",
    "set",
    "specify",
    "start",
    "stop",
    "test",
    "update",
    "upgrade",
    "upload",
    "use",
    "validate",
    "write",
    "query",
    "monitor",
    "alert",
    "label",
    "name",
    "instrument",
    "export",
    "store",
}
# Not taken as instructions: "Import X" sections hold code and a note, and "Name" is a noun as often.
IMPERATIVES -= {"import", "name", "label", "alert", "test", "store"}
QUESTION_WORDS = re.compile(
    r"^(what|how|why|when|which|who|where|can|does|do|is|are|should|was|wie|warum|wann|welche|kann)\b", re.I
)
EVASIVE = {
    "en": [
        "That depends on your setup; {topic} is covered elsewhere in the documentation.",
        "I'm not sure about {topic}. You may want to check the official documentation.",
        "There are several things to consider with {topic}, and the right choice varies from case to case.",
        "Good question. {topic} is something many users ask about, and it is worth reading up on.",
        "I can't answer that precisely; {topic} changes between versions.",
        "It is hard to say in general. Look at how {topic} behaves in your own environment.",
    ],
    "de": [
        "Das hängt von Ihrer Umgebung ab; {topic} wird an anderer Stelle der Dokumentation behandelt.",
        "Da bin ich mir nicht sicher. Zu {topic} lesen Sie am besten die offizielle Dokumentation.",
        "Bei {topic} gibt es einiges zu bedenken, und die richtige Wahl ist von Fall zu Fall verschieden.",
        "Gute Frage. Nach {topic} fragen viele, es lohnt sich, sich damit zu beschäftigen.",
    ],
}
NEGATIONS = {
    "en": [
        (r"\b(is|are|was|were|does|do|did|should|must|will|can|could|would) not\b", r"\1"),
        (r"\bcannot\b", "can"),
        (r"\b(isn't|aren't|doesn't|don't|won't|can't|shouldn't)\b", None),
        (r"\b(is|are|should|must|will|can) (?!not\b)", r"\1 not "),
        (r"\b(does|do)n't\b", r"\1"),
    ],
    "de": [
        (r"\s+nicht\b", ""),
        (r"\b(ist|sind|wird|werden|kann|können|muss|müssen|sollte|sollten) (?!nicht\b)", r"\1 nicht "),
    ],
}
CONTRACTIONS = {
    "isn't": "is",
    "aren't": "are",
    "doesn't": "does",
    "don't": "do",
    "won't": "will",
    "can't": "can",
    "shouldn't": "should",
}
NUMBER = re.compile(r"(?<![\w.:/-])(\d{1,6})(?:\.(\d+))?(?![\w.:/-]|\.\d)")
NAME = re.compile(
    r"(?<=[a-z,;:] )([A-Z][a-z]+[A-Z]\w*|[A-Z][a-z]{2,}|[a-z]+_[a-z_]+|[a-z]+\.[a-z]+\(\)|[A-Z]{2,}\w*)\b"
)


@dataclass
class Section:
    corpus: str
    source: str
    lang: str
    split: str
    title: str
    question: str
    answer: list[str]  # the first prose paragraph's first sentences
    paragraph: list[str]  # all sentences of that paragraph, then the next paragraph's first
    prose: str  # every prose paragraph of the section, joined
    asked: bool = False  # the heading is a question or an instruction ("Install X"), not only a topic
    siblings: list[Section] = field(default_factory=list, repr=False)


def plain(line: str) -> str:
    """Inline Markdown and reST markup out of one line of prose."""
    line = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", line)  # [text](url)
    line = re.sub(r"`([^`<]+?)\s*<[^>]+>`_+", r"\1", line)  # `text <url>`_
    line = re.sub(r":[a-z:]+:`~?([^`]+)`", r"\1", line)  # :class:`X`
    line = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", line)  # [text][ref]
    line = re.sub(r"<[^>]+>", "", line)
    line = line.replace("``", "").replace("`", "").replace("**", "").replace("__", "")
    line = re.sub(r"(?<!\w)[*_]([^*_]+)[*_](?!\w)", r"\1", line)
    line = re.sub(r"\{[#.][^}]*\}", "", line)
    return " ".join(line.split())


def paragraphs(lines: list[str]) -> list[str]:
    """Prose paragraphs of a section's body: no code, lists, tables, quotes, directives or HTML blocks."""
    out: list[str] = []
    current: list[str] = []
    fence = False
    for raw in lines:
        stripped = raw.strip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
            current = _flush(out, current)
            continue
        if fence:
            continue
        bad = (
            not stripped
            or raw.startswith(("    ", "\t"))
            or re.match(r"([-*+]|\d+[.)]|\|)\s|[>|<{]|\.\. |:\w+:|!!!|\?\?\?|=+$|-+$|\^+$|~+$|#", stripped)
        )
        if bad:
            current = _flush(out, current)
            continue
        current.append(stripped)
    _flush(out, current)
    return out


def _flush(out: list[str], current: list[str]) -> list[str]:
    if current:
        text = plain(" ".join(current))
        aside = re.match(r"(note|tip|info|warning|hinweis|tipp|achtung)\b", text, re.I)
        if len(text.split()) >= 8 and text[-1:] in ".!?" and not aside:
            out.append(text)
    return []


def question_for(title: str, product: str, lang: str, words_lower: set[str]) -> str | None:
    clean = plain(title).strip(" .:")
    if not clean or clean.lower() in SKIP_HEADINGS or len(clean) < 3 or len(clean.split()) > 12:
        return None
    if clean.endswith("?"):
        return clean
    if QUESTION_WORDS.match(clean):
        return clean + "?"
    words = clean.split()
    if lang == "de":
        return f"Was sollte ich über {clean} in {product} wissen?"
    # Title-case words that the page also writes in lower case are ordinary words.
    lowered = " ".join(
        w.lower() if w[:1].isupper() and w[1:].islower() and w.lower() in words_lower else w for w in words
    )
    first = words[0].lower()
    if first in IMPERATIVES and len(words) >= 2:
        return f"How do I {first} {' '.join(lowered.split()[1:])}?".replace("  ", " ").replace(" ?", "?")
    scope = "" if product.lower() in clean.lower() or product.startswith("the ") else f" in {product}"
    return f"What should I know about {lowered}{scope}?"


def split_of(text: str) -> str:
    digest = hashlib.sha1(" ".join(text.split())[:2000].encode("utf-8")).digest()
    return "dev" if digest[0] % 2 == 0 else "test"


def corpus_sections(corpus: str) -> list[Section]:
    folder = CORPORA / corpus
    result = load_documents(folder / "docs" if (folder / "docs").is_dir() else folder)
    product = PRODUCTS[corpus]
    found: list[Section] = []
    for document in result.documents:
        text, meta = document.page_content, document.metadata
        lang = "de" if meta.get("language") == "de" else "en"
        if meta.get("language") not in ("en", "de"):
            continue
        fmt = meta.get("format", "markdown")
        lines = text.split("\n")
        split = split_of(text)
        words_lower = set(re.findall(r"\b[a-zäöüß]+\b", text))
        page: list[Section] = []
        for section in sections(text, fmt if fmt in ("markdown", "rst") else "markdown"):
            if not section.path:
                continue
            body = lines[section.start + 1 : section.end]
            prose = paragraphs(body)
            if not prose:
                continue
            question = question_for(section.path[-1], product, lang, words_lower)
            if question is None:
                continue
            sentences = split_sentences(prose[0], lang)
            answer = sentences[:3]
            if len(prose) > 1:  # the next paragraph's first sentence: an answer's extra detail
                sentences += split_sentences(prose[1], lang)[:1]
            while len(" ".join(answer).split()) > 70 and len(answer) > 1:
                answer = answer[:-1]
            if len(" ".join(answer).split()) < 8:
                continue
            asked = not question.startswith(("What should I know about", "Was sollte ich über"))
            page.append(
                Section(
                    corpus,
                    f"{corpus}/{meta['source']}",
                    lang,
                    split,
                    section.path[-1],
                    question,
                    answer,
                    sentences,
                    "\n\n".join(prose[:3]),
                    asked,
                )
            )
        for item in page:
            item.siblings = [other for other in page if other is not item]
        found.extend(page)
    return found


def change_number(text: str, rng: random.Random) -> tuple[str, str] | None:
    matches = [m for m in NUMBER.finditer(text) if not (m.group(2) and len(m.group(1)) > 3)]
    if not matches:
        return None
    m = rng.choice(matches)
    whole = int(m.group(1))
    if 1900 <= whole <= 2100 and not m.group(2):
        new = str(whole + rng.choice([-3, -2, 2, 3]))
    elif m.group(2):
        new = f"{whole + 1}.{m.group(2)}"
    else:
        new = str(whole * 2 if whole > 1 else whole + 2)
    return text[: m.start()] + new + text[m.end() :], f"the number {m.group(0)} becomes {new}"


def flip_negation(text: str, lang: str) -> tuple[str, str] | None:
    for pattern, replacement in NEGATIONS[lang]:
        m = re.search(pattern, text)
        if not m:
            continue
        new = CONTRACTIONS[m.group(1)] if replacement is None else m.expand(replacement)
        changed = text[: m.start()] + new + text[m.end() :]
        return changed, f"'{m.group(0).strip()}' becomes '{new.strip()}'"
    return None


def swap_name(item: Section, text: str, rng: random.Random) -> tuple[str, str] | None:
    names = [m for m in NAME.finditer(text)]
    if not names:
        return None
    own = item.prose.lower()
    pool = sorted(
        {
            m.group(1)
            for other in item.siblings
            for m in NAME.finditer(other.prose)
            if m.group(1).lower() not in own
        }
    )
    rng.shuffle(names)
    for m in names:
        shaped = [p for p in pool if p[0].isupper() == m.group(1)[0].isupper() and p != m.group(1)]
        if shaped:
            new = rng.choice(shaped)
            return text[: m.start(1)] + new + text[
                m.end(1) :
            ], f"'{m.group(1)}' becomes '{new}' (another section of the page)"
    return None


def change_fact(item: Section, text: str, rng: random.Random) -> tuple[str, str, str] | None:
    options = [
        ("changed_number", lambda: change_number(text, rng)),
        ("negation", lambda: flip_negation(text, item.lang)),
        ("swapped_name", lambda: swap_name(item, text, rng)),
    ]
    rng.shuffle(options)
    options.sort(key=lambda o: o[0] != "changed_number")  # numbers are rare in a first paragraph: use them
    for kind, make in options:
        made = make()
        if made and made[0] != text:
            return kind, made[0], made[1]
    return None


def other_answer(item: Section, rng: random.Random) -> Section | None:
    answer = " ".join(item.answer).lower()
    candidates = [
        o
        for o in item.siblings
        if " ".join(o.answer).lower() not in item.prose.lower() and answer not in o.prose.lower()
    ]
    return rng.choice(candidates) if candidates else None


def pair(
    name: str, index: int, item: Section, kind: str, made: str, better: dict, worse: dict, **extra
) -> dict:
    return {
        "id": f"{name}-{index:03d}",
        "split": item.split,
        "corpus": item.corpus,
        "kind": kind,
        **extra,
        "made": made,
        "source": [item.source],
        "better": better,
        "worse": worse,
    }


def faithfulness(items: list[Section], others: dict[str, list[str]], rng: random.Random) -> list[dict]:
    rows = []
    for turn, item in enumerate(items):
        response = " ".join(item.answer)
        base = {"user_input": item.question, "retrieved_contexts": [item.prose]}
        want = ("added_sentence", "fact")[turn % 2]
        changed = change_fact(item, response, rng) if want == "fact" else None
        if changed:
            kind, worse, how = changed
            made = f"Better copies the answer's sentences from the contexts; in worse {how}."
        else:
            # A sentence of another corpus (German has one corpus: another page of it).
            pool = [s for s in others[item.lang] if not s.startswith(item.corpus + "/")] or [
                s for s in others[item.lang] if not s.startswith(item.source + "|")
            ]
            source, sentence = rng.choice(pool).split("|", 1)
            kind, worse = "added_sentence", f"{response} {sentence}"
            made = f"Better copies the answer's sentences from the contexts; worse adds one from {source}."
        rows.append(
            pair(
                "faithfulness",
                len(rows) + 1,
                item,
                kind,
                made,
                base | {"response": response},
                base | {"response": worse},
            )
        )
    return rows


def answer_relevancy(items: list[Section], rng: random.Random) -> list[dict]:
    rows = []
    by_corpus: dict[str, list[Section]] = {}
    for item in items:
        by_corpus.setdefault(item.corpus, []).append(item)
    for turn, item in enumerate(items):
        answer = " ".join(item.answer)
        want = ("evasive", "other_section", "other_page")[turn % 3]
        worse, made = None, ""
        if want == "other_section":
            other = other_answer(item, rng)
            if other:
                worse = " ".join(other.answer)
                made = f"Worse is the answer of the section '{other.title}' of the same page."
        if want == "other_page" or (want == "other_section" and worse is None):
            pages = [o for o in by_corpus[item.corpus] if o.source != item.source]
            if pages:
                other = rng.choice(pages)
                want, worse = "other_page", " ".join(other.answer)
                made = f"Worse is the answer of the section '{other.title}' of another page ({other.source})."
        if worse is None:
            want = "evasive"
            topic = plain(item.title).strip(" ?.:")
            worse = rng.choice(EVASIVE[item.lang]).format(topic=topic)
            made = "Worse is an evasive reply that names the topic without answering."
        rows.append(
            pair(
                "answer_relevancy",
                len(rows) + 1,
                item,
                want,
                "Better is the first sentences under the heading the question was made from. " + made,
                {"user_input": item.question, "response": answer},
                {"user_input": item.question, "response": worse},
            )
        )
    # Then, with their own draw so the pairs above stay as they were: every other answer padded with
    # sentences of another section of the page (the answer is all there, with material not asked for).
    padding = random.Random(rng.random())
    for item in items[::2]:
        filler = padding_sentences(item, padding, 2)
        if not filler:
            continue
        answer = " ".join(item.answer)
        rows.append(
            pair(
                "answer_relevancy",
                len(rows) + 1,
                item,
                "padded",
                "Better is the first sentences under the heading; worse adds two sentences of another "
                "section of the page.",
                {"user_input": item.question, "response": answer},
                {"user_input": item.question, "response": f"{answer} {' '.join(filler)}"},
            )
        )
    return rows


def padding_sentences(item: Section, rng: random.Random, count: int) -> list[str]:
    """``count`` sentences from one other section of the page that does not hold the answer."""
    answer = " ".join(item.answer).lower()
    sections = [o for o in item.siblings if answer not in o.prose.lower() and len(o.paragraph) >= count]
    if not sections:
        return []
    other = rng.choice(sections)
    return rng.sample(other.paragraph, count)


def context_relevance(items: list[Section], pool: dict[str, list[Section]], rng: random.Random) -> list[dict]:
    """Only sections whose heading asks something: a reader could not tell which sections of a page
    answer "What should I know about X?" (8 of 24 blind labels did not hold on such questions)."""
    rows = []
    for turn, item in enumerate(items):
        answer = " ".join(item.answer)
        base = {"user_input": item.question, "reference": answer, "response": answer}
        unrelated = [o for o in item.siblings if answer.lower() not in o.prose.lower()]
        elsewhere = [o for o in pool[item.corpus] if o.source != item.source]
        if turn % 2 == 0 and unrelated:
            other = rng.choice(unrelated)
            kind, worse = "other_section", [other.prose]
            made = f"Worse is the section '{other.title}' of the same page, which does not give the answer."
        elif len(elsewhere) >= 2:
            picked = rng.sample(elsewhere, 2)
            kind, worse = "diluted", [item.prose] + [o.prose for o in picked]
            made = "Worse is the answering section followed by sections of two other pages of the corpus."
        else:
            continue
        rows.append(
            pair(
                "context_relevance",
                len(rows) + 1,
                item,
                kind,
                made,
                base | {"retrieved_contexts": [item.prose]},
                base | {"retrieved_contexts": worse},
            )
        )
    # Then, with their own draw: the same passage with sentences of another section of the page written
    # into it (one after its first paragraph, one at its end): padding inside one context.
    padding = random.Random(rng.random())
    for item in items:
        filler = padding_sentences(item, padding, 2)
        if not filler:
            continue
        answer = " ".join(item.answer)
        base = {"user_input": item.question, "reference": answer, "response": answer}
        paragraphs_of = item.prose.split("\n\n")
        paragraphs_of[0] = f"{paragraphs_of[0]} {filler[0]}"
        padded = "\n\n".join(paragraphs_of) + f" {filler[1]}"
        rows.append(
            pair(
                "context_relevance",
                len(rows) + 1,
                item,
                "padded_passage",
                "Worse is the same passage with two sentences of another section of the page in it.",
                base | {"retrieved_contexts": [item.prose]},
                base | {"retrieved_contexts": [padded]},
            )
        )
    return rows


def answer_correctness(items: list[Section], rng: random.Random) -> list[dict]:
    rows = []
    for turn, item in enumerate(items):
        reference = " ".join(item.answer)
        rest = item.paragraph[len(item.answer) :]
        if len(item.answer) >= 2 and (turn % 2 == 0 or not rest):
            better_kind, better = "reordered", " ".join(item.answer[1:] + item.answer[:1])
        elif rest:
            better_kind, better = "extra_detail", f"{reference} {rest[0]}"
        else:
            better_kind, better = "same", reference
        worse = None
        if turn % 3 != 2:
            changed = change_fact(item, reference, rng)
            if changed:
                kind, worse, how = changed
                made = f"In worse {how}."
        if worse is None:
            other = other_answer(item, rng)
            if other is None:
                continue
            kind, worse = "other_answer", " ".join(other.answer)
            made = f"Worse is the answer of the section '{other.title}' of the same page."
        base = {"user_input": item.question, "reference": reference}
        rows.append(
            pair(
                "answer_correctness",
                len(rows) + 1,
                item,
                kind,
                f"Better ({better_kind}) has the reference's facts. " + made,
                base | {"response": better},
                base | {"response": worse},
                better_kind=better_kind,
            )
        )
    return rows


def write(name: str, rows: list[dict]) -> None:
    """One file per half: tests/data/judges/corpora/{dev,test}/<name>.jsonl, each written atomically."""
    counts = []
    for half in ("dev", "test"):
        folder = OUT / half
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.jsonl"
        kept = [{k: v for k, v in r.items() if k != "split"} for r in rows if r["split"] == half]
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
        tmp.replace(path)
        counts.append(f"{half} {len(kept)}")
    print(f"{name}: {len(rows)} pairs ({', '.join(counts)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-corpus", type=int, default=60, help="sections taken from each corpus")
    parser.add_argument("--per-page", type=int, default=4, help="sections taken from one page")
    args = parser.parse_args()
    rng = random.Random(20261204)
    chosen: list[Section] = []
    seen: set[str] = set()
    others: dict[str, list[str]] = {"en": [], "de": []}
    asked: list[Section] = []
    pool: dict[str, list[Section]] = {}
    asked_rng = random.Random(5)
    for corpus in PRODUCTS:
        found = corpus_sections(corpus)
        for item in found:
            others[item.lang].extend(f"{item.source}|{s}" for s in item.paragraph if len(s.split()) >= 8)
        pages: dict[str, list[Section]] = {}
        for item in found:
            key = (item.question + " ".join(item.answer)).lower()
            if key in seen or not item.siblings:
                continue
            seen.add(key)
            pages.setdefault(item.source, []).append(item)
        picked = [i for page in pages.values() for i in rng.sample(page, min(args.per_page, len(page)))]
        rng.shuffle(picked)
        picked = picked[: args.per_corpus]
        pool[corpus] = found
        questions = [i for page in pages.values() for i in page if i.asked]
        asked_rng.shuffle(questions)
        by_page: dict[str, int] = {}
        for item in questions:
            if by_page.get(item.source, 0) < args.per_page and sum(by_page.values()) < args.per_corpus:
                by_page[item.source] = by_page.get(item.source, 0) + 1
                asked.append(item)
        print(
            f"{corpus}: {len(found)} sections with a question and an answer, {len(picked)} taken; "
            f"{len(questions)} with a heading that asks, {sum(by_page.values())} taken"
        )
        chosen.extend(picked)
    write("faithfulness", faithfulness(chosen, others, random.Random(1)))
    write("answer_relevancy", answer_relevancy(chosen, random.Random(2)))
    write("context_relevance", context_relevance(asked, pool, random.Random(3)))
    write("answer_correctness", answer_correctness(chosen, random.Random(4)))


if __name__ == "__main__":
    main()
