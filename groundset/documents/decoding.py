"""Bytes -> clean text for the loader: binary sniffing, charset repair, normalisation, front matter.

Every function here is linear in the input size and never raises on bad bytes: a docs folder can hold
anything, and one bad file must not stop a load. Problems come back as short human notes instead.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import yaml

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"%PDF-", "PDF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\x7fELF", "ELF"),
    (b"BZh9", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
)
_UTF16_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (b"\xff\xfe", "utf-16-le", "little-endian"),
    (b"\xfe\xff", "utf-16-be", "big-endian"),
)
_UTF8_BOM = b"\xef\xbb\xbf"
# C0 controls except \t \n \r (and DEL): a text file has almost none of these, a binary file has many.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_MAX_CONTROL_RATIO = 0.10
_MAX_UNDECODABLE_RATIO = 0.30
# Control characters to drop from decoded text: C0 (except \t and \n), DEL and C1.
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")
_VALID_NON_ASCII = re.compile("[^\x00-\x7f\udc80-\udcff]")
_HIGH_BYTE_RUN = re.compile(b"[\x80-\xff]+")
# Non-letters that legitimately appear in legacy Western text (quotes, dashes, currency, NBSP ...).
_CP1252_PUNCTUATION = frozenset("«»‘’‚“”„–—…€£°§·¿¡×÷©®™\u00a0")
_MAX_CP1252_RUN = 2
_LONG_LINE = 100_000
_FRONT_MATTER_OPEN = re.compile(r"---[ \t]*\n")
_FRONT_MATTER_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_MAX_FRONT_MATTER = 65_536  # a longer "block" is prose between two thematic breaks, not metadata
_YAML_KEY = re.compile(r"[A-Za-z_][\w.-]*[ \t]*:")
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")
# BaseLoader builds only str/list/dict (no tags, no objects, every scalar stays the text as written).
_YAML_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


@dataclass(frozen=True)
class Decoded:
    """Result of :func:`decode_bytes`: either ``text`` or a ``binary`` reason, plus repair notes."""

    text: str | None
    binary: str | None = None
    notes: list[str] = field(default_factory=list)


def _is_plausible_cp1252(data: bytes, escaped_text: str) -> bool:
    """True when ``data`` looks like a legacy Western (cp1252 / Latin-1) text, not broken UTF-8.

    A legacy file has no valid UTF-8 multi-byte sequence at all, its high bytes sit alone or in pairs
    (accented letters inside words), and each of them maps to a letter or common punctuation.
    """
    if _VALID_NON_ASCII.search(escaped_text):
        return False  # some valid UTF-8 multi-byte character exists: this is damaged UTF-8
    for run in _HIGH_BYTE_RUN.finditer(data):
        chunk = run.group()
        if len(chunk) > _MAX_CP1252_RUN:
            return False
        try:
            decoded = chunk.decode("cp1252")
        except UnicodeDecodeError:
            return False
        for char in decoded:
            if not unicodedata.category(char).startswith("L") and char not in _CP1252_PUNCTUATION:
                return False
    return True


def _decode_utf8_or_legacy(data: bytes) -> Decoded:
    """Strict UTF-8, else cp1252 when plausible, else UTF-8 with U+FFFD for each bad sequence."""
    try:
        return Decoded(text=data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    escaped = data.decode("utf-8", errors="surrogateescape")
    bad = len(_ESCAPED_BYTE.findall(escaped))
    if bad / len(data) > _MAX_UNDECODABLE_RATIO:
        return Decoded(text=None, binary=f"binary file ({bad / len(data):.0%} undecodable bytes)")
    plural = "byte" if bad == 1 else "bytes"
    if _is_plausible_cp1252(data, escaped):
        return Decoded(text=data.decode("cp1252"), notes=[f"decoded as cp1252 ({bad} non-UTF-8 {plural})"])
    text = data.decode("utf-8", errors="replace")
    return Decoded(text=text, notes=[f"{bad} invalid UTF-8 {plural} replaced"])


def decode_bytes(data: bytes) -> Decoded:
    """Decode a file's bytes, or say why it is binary. ``data`` must not be empty."""
    for bom, codec, order in _UTF16_BOMS:
        if data.startswith(bom) and not data.startswith(b"\xff\xfe\x00\x00"):
            try:
                text = data[len(bom) :].decode(codec)
            except UnicodeDecodeError:
                break  # not real UTF-16: let the binary checks below judge it
            return Decoded(text=text, notes=[f"decoded UTF-16 (BOM, {order})"])
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return Decoded(text=None, binary=f"binary file ({kind} magic bytes)")
    control = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if control / len(data) > _MAX_CONTROL_RATIO:
        return Decoded(text=None, binary=f"binary file ({control / len(data):.0%} control bytes)")
    notes: list[str] = []
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
        notes.append("stripped BOM")
        if not data:
            return Decoded(text="", notes=notes)
    decoded = _decode_utf8_or_legacy(data)
    if decoded.text is None:
        return decoded
    if "\x00" in decoded.text and decoded.notes:
        return Decoded(text=None, binary="binary file (NUL bytes and invalid UTF-8)")
    return Decoded(text=decoded.text, notes=notes + decoded.notes)


def normalise_text(text: str, *, check_lines: bool = True) -> tuple[str, list[str]]:
    """Line endings to LF, control characters (except tab and LF) removed, trailing whitespace cut.

    Returns the text and a note per change, so the loader can report what it repaired. Raw HTML passes
    ``check_lines=False``: minified HTML has no line breaks, but that says nothing about its text.
    """
    notes: list[str] = []
    if text.startswith("\ufeff"):  # a BOM that survived decoding (e.g. Document input)
        text = text[1:]
        notes.append("stripped BOM")
    if "\r" in text:
        crlf = "\r\n" in text
        text = text.replace("\r\n", "\n")
        lone_cr = "\r" in text
        text = text.replace("\r", "\n")
        kinds = [name for name, present in (("CRLF", crlf), ("CR", lone_cr)) if present]
        notes.append(f"normalised {'/'.join(kinds)} line endings")
    text, removed = _CONTROL_CHARS.subn("", text)
    if removed:
        notes.append(f"removed {removed} control character{'s' if removed != 1 else ''}")
    text = text.rstrip()
    if check_lines and len(text) > _LONG_LINE:
        longest = max(map(len, text.split("\n")))
        if "\n" not in text:
            notes.append(f"no line breaks ({len(text):,} characters on one line)")
        elif longest > _LONG_LINE:
            notes.append(f"very long line ({longest:,} characters without a line break)")
    return text, notes


def split_front_matter(text: str) -> tuple[str, dict[str, str] | None, str | None]:
    """Split a leading ``---`` YAML block off ``text``: ``(body, scalars or None, repair note or None)``.

    The YAML is parsed, never executed. A block that is not a mapping (e.g. a thematic break followed
    by a Setext heading) stays in the text; a block that looks like keys but is broken YAML is dropped.
    """
    opening = _FRONT_MATTER_OPEN.match(text)
    closing = _FRONT_MATTER_CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None or closing.start() - opening.end() > _MAX_FRONT_MATTER:
        return text, None, None
    block = text[opening.end() : closing.start()]
    body = _LEADING_BLANK_LINES.sub("", text[closing.end() + 1 :])
    try:
        data = yaml.load(block, Loader=_YAML_LOADER)  # noqa: S506 - BaseLoader constructs no objects
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        if _YAML_KEY.match(block.lstrip()):
            problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return body, {}, f"ignored malformed front matter ({problem})"
        return text, None, None
    if data is None:
        return body, {}, None
    if not isinstance(data, dict):
        return text, None, None
    scalars = {key: value for key, value in data.items() if isinstance(key, str) and isinstance(value, str)}
    return body, scalars, None
