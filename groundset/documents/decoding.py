"""Bytes -> clean text for the loader: binary sniffing, charset detection, normalisation, front matter.

Every function here is linear in the input size and never raises on bad bytes: a docs folder can hold
anything, and one bad file must not stop a load. Problems come back as short human notes instead.
Valid UTF-8 is always taken as UTF-8; only other bytes go to charset-normalizer, and only a bounded
sample of them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import yaml

from ..text.mdparse import YAML_KEY

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
# UTF-32 first: its little-endian BOM starts with the UTF-16 one.
_WIDE_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 (BOM, little-endian)"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 (BOM, big-endian)"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 (BOM, little-endian)"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 (BOM, big-endian)"),
)
_UTF8_BOM = b"\xef\xbb\xbf"
# C0 controls except \t \n \r (and DEL): a text file has almost none of these, a binary file has many.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_MAX_CONTROL_RATIO = 0.10
_MAX_UNDECODABLE_RATIO = 0.30
# Fewer invalid bytes than this share is UTF-8 with a few broken bytes, not a legacy code page: so few
# give charset-normalizer nothing to judge (junk like "ÿþý, À¯, â‚" scores as clean cp1252).
_FEW_BAD_BYTES = 0.005
# What charset-normalizer may answer, most common first: of the answers with the least chaos the first
# wins (see _detect). cp932, gb18030 and cp949 are the supersets of Shift-JIS, GBK and EUC-KR.
_LEGACY_CODECS = ["cp1252", "cp1250", "cp1251", "koi8_r", "cp1253",
                  "cp932", "gb18030", "cp949", "big5", "euc_jp"]  # fmt: skip
_WIDE_CODECS = ["utf_32_le", "utf_32_be", "utf_16_le", "utf_16_be"]
_SAME_CHAOS = 0.01
_LANGUAGE_THRESHOLD = 0.05  # CJK scores sit near its default 0.1: a few lines of Korean may miss it
_SAMPLE_BYTES = 32_768  # charset-normalizer decodes its whole input once per candidate codec
_STEPS, _CHUNK_SIZE = 8, 512  # its mess check reads at most 8 chunks of 512 bytes of that sample
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_WHITESPACE = re.compile(rb"\s")
_WORD_TAIL = re.compile(rb"\S*\Z")
_WORD_PREFIX = 32  # at most this many ASCII bytes are kept before a word's first non-ASCII byte
_HIGH_BYTES = bytes(range(0x80, 0x100))
_SAFE_CUT = bytes(range(0x30, 0x100))  # bytes below 0x30 never sit inside a legacy multi-byte character
# Control characters to drop from decoded text: C0 (except \t and \n), DEL and C1.
_HIGH_BYTE_RUN = re.compile(b"[\x80-\xff]+")
# Non-letters that legitimately appear in legacy Western text (quotes, dashes, currency, NBSP ...).
_CP1252_PUNCTUATION = frozenset("«»‘’‚“”„–—…€£°§·¿¡×÷©®™\u00a0")
_MAX_CP1252_RUN = 2
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # only from text handed in (Documents): bytes never decode to one
_LONG_LINE = 100_000
_FRONT_MATTER_OPEN = re.compile(r"---[ \t]*\n")
_FRONT_MATTER_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_MAX_FRONT_MATTER = 65_536  # a longer "block" is prose between two thematic breaks, not metadata
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")
# BaseLoader builds only str/list/dict (no tags, no objects, every scalar stays the text as written).
_YAML_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


@dataclass(frozen=True)
class Decoded:
    """Result of :func:`decode_bytes`: either ``text`` or a ``binary`` reason, plus repair notes."""

    text: str | None
    binary: str | None = None
    notes: list[str] = field(default_factory=list)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _detect(sample: bytes, codecs: list[str]) -> tuple[str, float, float] | None:
    """charset-normalizer's ``(codec, chaos, coherence)`` for ``sample``, or None if nothing fits.

    Of the codecs with the least chaos, one in which it recognised a language wins, then the first in
    ``codecs``: its own ranking trusts language scores that, on a few lines of French, prefer cp1250
    ("ŕ la française") to cp1252.
    """
    from charset_normalizer import from_bytes  # imported late: only non-UTF-8 input needs it

    matches = from_bytes(
        sample,
        steps=_STEPS,
        chunk_size=_CHUNK_SIZE,
        cp_isolation=codecs,
        language_threshold=_LANGUAGE_THRESHOLD,
        enable_fallback=False,
    )
    found = [(codec, m.chaos, m.coherence) for m in matches for codec in m.could_be_from_charset]
    if not found:
        return None
    least = min(chaos for _, chaos, _ in found)
    tied = [f for f in found if f[1] - least < _SAME_CHAOS]
    return min(tied, key=lambda f: (f[2] <= 0, codecs.index(f[0])))


def _non_ascii_words(data: bytes) -> bytes:
    """The words holding non-ASCII bytes, up to :data:`_SAMPLE_BYTES`: the only evidence of a charset.

    ASCII words read the same in every candidate and only dilute the mess measure: a page of English
    with junk bytes in a dozen words scores as clean cp1250 as a whole.
    """
    words: list[bytes] = []
    room, pos = _SAMPLE_BYTES, 0
    while room > 0 and (high := _HIGH_BYTE.search(data, pos)):
        first = high.start()
        start = first - len(_WORD_TAIL.search(data, max(pos, first - _WORD_PREFIX), first).group())
        space = _WHITESPACE.search(data, first)
        pos = space.start() if space else len(data)
        word = data[start:pos]
        if len(word) > room:  # clip it between two characters, where one is known
            word = word[:room].rstrip(_SAFE_CUT) or word[:room]
        words.append(word)
        room -= len(word) + 1
    return b" ".join(words)


def _note_codec(codec: str) -> str:
    return f"decoded as {codec.replace('_', '-')} (charset-normalizer)"


def _decode_wide(data: bytes) -> Decoded | None:
    """UTF-16/32 without a BOM (their NUL bytes fail the binary checks), or None."""
    found = _detect(data[:_SAMPLE_BYTES], _WIDE_CODECS)  # a multiple of 4: no code unit is cut
    if found is None:
        return None
    try:
        text = data.decode(found[0])
    except UnicodeDecodeError:
        return None  # the sample fitted, the rest does not
    head = text[:_SAMPLE_BYTES]
    if len(_CONTROL_CHARS.findall(head)) > _MAX_CONTROL_RATIO * len(head):
        return None
    return Decoded(text=text, notes=[_note_codec(found[0])])


def _decode_legacy(data: bytes) -> Decoded | None:
    """A legacy code page charset-normalizer is sure of (it recognised a language in it), or None.

    Without a language, one line of EUC-JP reads as well in cp949, and junk bytes as well in cp1251.
    """
    found = _detect(_non_ascii_words(data), _LEGACY_CODECS)
    if found is None or found[2] <= 0:
        return None
    codec = found[0]
    text = data.decode(codec, errors="surrogateescape")
    text, bad = _ESCAPED_BYTE.subn("\ufffd", text)
    notes = [_note_codec(codec)] + ([f"{_plural(bad, 'undecodable byte')} replaced"] if bad else [])
    return Decoded(text=text, notes=notes)


def _is_sparse_cp1252(data: bytes) -> bool:
    """English (or any Latin) text with a few Windows smart quotes, dashes or accented letters: too few
    for a detector to judge, but each high byte sits alone or in a pair and reads as a letter or common
    punctuation in cp1252 (a broken UTF-8 sequence does not)."""
    for run in _HIGH_BYTE_RUN.finditer(data):
        chunk = run.group()
        if len(chunk) > _MAX_CP1252_RUN:
            return False
        try:
            decoded = chunk.decode("cp1252")
        except UnicodeDecodeError:
            return False
        if any(not unicodedata.category(c).startswith("L") and c not in _CP1252_PUNCTUATION for c in decoded):
            return False
    return True


def _decode_not_utf8(data: bytes) -> Decoded:
    """Invalid UTF-8: damaged UTF-8 gets U+FFFD, a legacy charset is decoded, noise is binary.

    Damaged UTF-8 has few invalid bytes, or more valid multi-byte characters than invalid bytes: legacy
    CJK text forms such characters by chance, but at most about one per three invalid bytes.
    One decode serves every count: each invalid byte becomes one escape (then one U+FFFD), each ASCII
    byte one character, so the other characters are the valid multi-byte ones.
    """
    text, bad = _ESCAPED_BYTE.subn("\ufffd", data.decode("utf-8", errors="surrogateescape"))
    multi_byte = len(text) - bad - len(data.translate(None, _HIGH_BYTES))
    if bad >= _FEW_BAD_BYTES * len(data) and multi_byte <= bad:
        legacy = _decode_legacy(data)
        if legacy is not None:
            return legacy
    if multi_byte == 0 and _is_sparse_cp1252(data):
        return Decoded(
            text=data.decode("cp1252"), notes=[f"decoded as cp1252 ({_plural(bad, 'non-UTF-8 byte')})"]
        )
    if bad / len(data) > _MAX_UNDECODABLE_RATIO:
        return Decoded(text=None, binary=f"binary file ({bad / len(data):.0%} undecodable bytes)")
    return Decoded(text=text, notes=[f"{_plural(bad, 'invalid UTF-8 byte')} replaced"])


def _decode_with_bom(data: bytes) -> Decoded | None:
    for bom, codec, what in _WIDE_BOMS:
        if data.startswith(bom):
            try:
                return Decoded(text=data[len(bom) :].decode(codec), notes=[f"decoded {what}"])
            except UnicodeDecodeError:
                continue  # not real UTF-32/16: a shorter BOM or the binary checks judge it
    return None


def decode_bytes(data: bytes) -> Decoded:
    """Decode a file's bytes, or say why it is binary. ``data`` must not be empty."""
    decoded = _decode_with_bom(data)
    if decoded is not None:
        return decoded
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return Decoded(text=None, binary=f"binary file ({kind} magic bytes)")
    notes: list[str] = []
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
        notes.append("stripped BOM")
        if not data:
            return Decoded(text="", notes=notes)
    try:
        text: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    control = (len(data) - len(data.translate(None, _CONTROL_BYTES))) / len(data)
    if b"\x00" in data and (text is None or control > _MAX_CONTROL_RATIO):
        wide = _decode_wide(data)
        if wide is not None:
            return wide
    if control > _MAX_CONTROL_RATIO:
        return Decoded(text=None, binary=f"binary file ({control:.0%} control bytes)")
    if text is not None:
        return Decoded(text=text, notes=notes)
    if b"\x00" in data:
        return Decoded(text=None, binary="binary file (NUL bytes and invalid UTF-8)")
    decoded = _decode_not_utf8(data)
    return Decoded(text=decoded.text, binary=decoded.binary, notes=notes + decoded.notes)


def normalise_text(text: str, *, check_lines: bool = True) -> tuple[str, list[str]]:
    """Line endings to LF, control characters (except tab and LF) removed, trailing whitespace cut.

    Returns the text and a note per change, so the loader can report what it repaired. Raw HTML passes
    ``check_lines=False``: minified HTML has no line breaks, but that says nothing about its text.
    """
    notes: list[str] = []
    if text.startswith("\ufeff"):  # a BOM that survived decoding (e.g. Document input)
        text = text[1:]
        notes.append("stripped BOM")
    text, lone = _SURROGATE.subn("\ufffd", text)
    if lone:  # not Unicode: it would break hashing, tokenizers and every file written later
        notes.append(f"replaced {lone} lone UTF-16 surrogate{'s' if lone != 1 else ''} with U+FFFD")
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
        if YAML_KEY.match(block.lstrip()):
            problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return body, {}, f"ignored malformed front matter ({problem})"
        return text, None, None
    if data is None:
        return body, {}, None
    if not isinstance(data, dict):
        return text, None, None
    scalars = {key: value for key, value in data.items() if isinstance(key, str) and isinstance(value, str)}
    return body, scalars, None
