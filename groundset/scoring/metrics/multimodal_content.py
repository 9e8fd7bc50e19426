"""Retrieved contexts as chat content blocks: text, or images a vision model can see.

A context is an image when it is a ``data:image/...;base64,`` URL, an http(s) URL whose path ends in
an image suffix (sent as the URL: never fetched here), or the path of a local image file. A local
file is read only when it is a regular file, not a symbolic link (refused, so a context cannot point
the judge at a file elsewhere), with an image suffix, at most ``MAX_IMAGE_BYTES``, and starting with
the signature of a PNG, JPEG, GIF or WebP image; it is sent as a data URL. Anything else is text.
The sha256 of an image's bytes (or its http URL) is what the cache key sees, never the bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp"})
MAX_IMAGE_BYTES = 10 * 1024 * 1024
_MAX_PATH_CHARS = 4096
_DATA_URL = re.compile(r"data:(?P<mime>image/[\w.+-]+);base64,(?P<data>.*)", re.DOTALL | re.IGNORECASE)
_HTTP_URL = re.compile(r"https?://\S+", re.IGNORECASE)
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


class ContextPart(BaseModel):
    """One retrieved context as the judge gets it."""

    kind: Literal["text", "image"]
    text: str = Field(default="", description="the text of a text context")
    source: str = Field(default="", description="an image's file path, http(s) URL, or 'data URL'")
    sha256: str = Field(default="", description="sha256 of an image's bytes (files and data URLs)")
    # What is sent for an image: a data URL or the http(s) URL. Left out of dumps (and so of the cache
    # key, which holds the hash instead): a 10 MB image would otherwise be serialised on every lookup.
    url: str = Field(default="", exclude=True)

    def describe(self) -> str:
        """One line for traces and reasons: what the context was, without its bytes."""
        if self.kind == "text":
            return "text"
        digest = f" (sha256 {self.sha256[:12]})" if self.sha256 else ""
        return f"image: {self.source}{digest}"


def context_parts(contexts: list[str]) -> list[ContextPart]:
    """Every context classified and, for images, made ready to send (files read here)."""
    return [context_part(text, index) for index, text in enumerate(contexts, start=1)]


def context_part(context: str, index: int = 1) -> ContextPart:
    """One context as text or image; a broken image reference is an error naming the context."""
    item = context.strip()
    data_url = _DATA_URL.fullmatch(item)
    if data_url:
        return _from_data_url(data_url, index)
    if _HTTP_URL.fullmatch(item):
        if Path(urlsplit(item).path).suffix.lower() in IMAGE_SUFFIXES:
            return ContextPart(kind="image", source=item, url=item)
        return ContextPart(kind="text", text=context)
    if _maybe_path(item):
        path = Path(item).expanduser()
        if os.path.lexists(path) or not any(c.isspace() for c in item):
            return _from_file(path, index)
    return ContextPart(kind="text", text=context)


def content_blocks(parts: list[ContextPart]) -> list[dict[str, Any]]:
    """LangChain content blocks: a label per context, then its text or its image."""
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(parts, start=1):
        if part.kind == "text":
            blocks.append({"type": "text", "text": f"Context {index} (text):\n{part.text}"})
        else:
            blocks.append({"type": "text", "text": f"Context {index} (image):"})
            blocks.append({"type": "image_url", "image_url": {"url": part.url}})
    return blocks


def image_type(head: bytes) -> str | None:
    """The MIME type of an image from its first bytes, or None if it is none of the four sent."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return next((mime for signature, mime in _SIGNATURES if head.startswith(signature)), None)


def _maybe_path(item: str) -> bool:
    """One line ending in an image suffix: meant as an image file (a sentence only if no such file)."""
    return (
        0 < len(item) <= _MAX_PATH_CHARS
        and "\n" not in item
        and "\x00" not in item
        and Path(item).suffix.lower() in IMAGE_SUFFIXES
    )


def _from_data_url(match: re.Match[str], index: int) -> ContextPart:
    try:
        raw = base64.b64decode("".join(match.group("data").split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(
            f"retrieved context {index} is a data URL whose base64 payload does not decode; "
            "give the image as data:image/<type>;base64,<base64 of the file's bytes>"
        ) from None
    if not raw:
        raise ValueError(f"retrieved context {index} is a data URL with no image bytes")
    mime = match.group("mime").lower()
    return ContextPart(
        kind="image", source=f"data URL ({mime})", sha256=_digest(raw), url=_data_url(mime, raw)
    )


def _from_file(path: Path, index: int) -> ContextPart:
    """Read an image file: no symbolic link, a regular file, under the size cap, a known image format."""
    where = f"retrieved context {index} ({path})"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise ValueError(
            f"{where} names an image file that does not exist; give an existing path (relative paths are "
            f"read from {Path.cwd()}), a data URL or an http(s) URL"
        ) from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError(
            f"{where} is a symbolic link; images are read from regular files only: give the file's own path"
        )
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{where} is not a regular file; give the path of an image file")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # O_NOFOLLOW: a link swapped in after the check is refused too
    except OSError as exc:
        raise ValueError(f"{where} cannot be read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        opened = os.fstat(file.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise ValueError(f"{where} is not a regular file; give the path of an image file")
        if opened.st_size > MAX_IMAGE_BYTES:
            raise ValueError(
                f"{where} is {opened.st_size:,} bytes, over the {MAX_IMAGE_BYTES:,}-byte limit for an image; "
                "send a smaller image"
            )
        raw = file.read(MAX_IMAGE_BYTES + 1)
    if len(raw) > MAX_IMAGE_BYTES:
        raise ValueError(f"{where} grew over the {MAX_IMAGE_BYTES:,}-byte limit while being read")
    mime = image_type(raw[:16])
    if mime is None:
        raise ValueError(f"{where} is not a PNG, JPEG, GIF or WebP image (its first bytes say otherwise)")
    return ContextPart(kind="image", source=str(path), sha256=_digest(raw), url=_data_url(mime, raw))


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _data_url(mime: str, raw: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(raw).decode('ascii')}"
