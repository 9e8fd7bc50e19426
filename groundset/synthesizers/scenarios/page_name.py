"""The API or command a reference page documents, named by its title ("Class: BalancedPool", "npm-access"),
so a question made of one of its sentences can say what it is about: "What happens if no command is
provided?" on the `npm run-script` page asks nothing until it names the command.

Only titles that read as code count (a CamelCase name, a dotted or called one, a lower-case hyphenated
command), and only as the page writes them in its text ("npm access" for the title "npm-access"): a
tutorial's prose title ("Cookie Parameters", "Sub-dependencies") is no name, nor is the folder name an
overview page (README, index) is titled by.
"""

from __future__ import annotations

import re

from ...kg.graph import KnowledgeGraph

__all__ = ["page_name"]

_KIND_PREFIX = re.compile(
    r"^(?:class|interface|module|function|method|namespace|type|enum|command)\s*:\s*", re.IGNORECASE
)
_CODE_LIKE = re.compile(r"[_.:/()]|[a-z][A-Z]|^[a-z0-9]+(?:-[a-z0-9]+)+$")
_OVERVIEW = re.compile(r"(?:^|/)(?:readme|index|_index)\.\w+$", re.IGNORECASE)


def page_name(kg: KnowledgeGraph, chunk: str) -> str:
    """The code-like name of the page ``chunk`` belongs to, as its text writes it, or ""."""
    data = kg.get(chunk)
    document = data.get("document")
    if not document or _OVERVIEW.search(data.get("source") or ""):
        return ""
    title = kg.get(document).get("title") or ""
    name = _KIND_PREFIX.sub("", title.strip().strip("`"))
    if not name or " " in name or not _CODE_LIKE.search(name):
        return ""
    text = " ".join(kg.get(c)["text"] for c in kg.chunks_of(document))
    for written in (name.replace("-", " ", 1), name):  # "npm access", the command, before "npm-access"
        if re.search(rf"(?<![\w-]){re.escape(written)}(?![\w-])", text):
            return written
    return ""
