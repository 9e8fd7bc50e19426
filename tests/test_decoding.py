"""decode_bytes: UTF-8 first, BOMs, charset-normalizer for legacy code pages, binary sniffing, repairs.

Every fixture is a few lines of text written for this file and encoded here, so the expected text is
exactly the sentence before encoding.
"""

from __future__ import annotations

import random

import charset_normalizer
import pytest

from groundset.documents import decoding
from groundset.documents.decoding import decode_bytes

FRENCH = (
    "Le café « Chez Régis » coûte 3,50 € — c’est “donné”, dit-on à Noël.\n"
    "Les élèves mangent des crêpes et boivent du thé à la française.\n"
    "Naïve façade, déjà vu, œuvre complète : voilà le résumé du séjour.\n"
)
GERMAN = (
    "Grüße aus München! Die Straße führt über die Brücke zum Bahnhof.\n"
    "Ärzte und Bäcker öffnen früh; die Höhe der Gebühren ist überall gleich.\n"
    "Schöne Grüße und frohes Schaffen wünscht das ganze Team aus Köln.\n"
)
POLISH = (
    "Zażółć gęślą jaźń. Łódź jest pięknym miastem, a Kraków słynie z zabytków.\n"
    "Wszyscy mieszkańcy świętują w sobotę i niedzielę, gdy pogoda jest ładna.\n"
)
JAPANESE = (
    "東京は日本の首都であり、多くの人々が毎日電車で通勤しています。\n"
    "春には桜が咲き、公園は花見を楽しむ家族で賑わいます。\n"
    "この文書は文字コードの自動判定を試すための日本語の文章です。\n"
)
CHINESE = (
    "北京是中国的首都，也是一座历史悠久的文化名城。\n"
    "每年春天，公园里开满了鲜花，许多市民前来散步和拍照。\n"
    "这份文件使用国标编码保存，用来测试字符集的自动检测功能。\n"
)
KOREAN = (
    "서울은 대한민국의 수도이며 많은 사람들이 지하철로 출퇴근합니다.\n"
    "봄이 오면 공원에는 벚꽃이 피고 가족들이 산책을 즐깁니다.\n"
    "이 문서는 문자 집합 자동 감지를 시험하기 위한 한국어 문장입니다.\n"
)
RUSSIAN = (
    "Москва является столицей России и крупнейшим городом страны.\n"
    "Весной в парках цветут деревья, и люди гуляют с детьми по выходным.\n"
    "Этот документ сохранён в старой кодировке для проверки её определения.\n"
)
ENGLISH = (
    "Prometheus stores all data as time series: streams of timestamped values.\n"
    "Every series is identified by its metric name and optional key-value labels.\n"
)


def _note(codec: str) -> list[str]:
    return [f"decoded as {codec} (charset-normalizer)"]


@pytest.fixture
def no_detector(monkeypatch):
    """Fails the test if charset-normalizer is asked at all."""

    def refuse(*args, **kwargs):
        raise AssertionError("charset-normalizer was called")

    monkeypatch.setattr(charset_normalizer, "from_bytes", refuse)


# --- valid UTF-8 is never re-guessed ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        GERMAN,
        JAPANESE + CHINESE,
        "ok",
        "Short ASCII line.\n",
        "Release done 🚀, tests green ✅, thanks 🙏 and see you 👋.\n",
        "Ã©",  # reads like cp1252 mojibake, yet is valid UTF-8
    ],
)
def test_valid_utf8_stays_utf8_without_asking_the_detector(text, no_detector):
    assert decode_bytes(text.encode()) == decoding.Decoded(text=text)


def test_utf8_bom_is_stripped(no_detector):
    assert decode_bytes(b"\xef\xbb\xbf" + GERMAN.encode()) == decoding.Decoded(GERMAN, notes=["stripped BOM"])


# --- legacy code pages, detected by charset-normalizer ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "encoding", "detected"),
    [
        (FRENCH, "cp1252", "cp1252"),  # smart quotes, euro sign, œ: cp1252 only
        (GERMAN, "latin-1", "cp1252"),  # identical bytes in latin-1 and cp1252 (and cp1250): cp1252 reported
        (POLISH, "cp1250", "cp1250"),
        (JAPANESE, "shift_jis", "cp932"),  # cp932 is Windows' superset of Shift-JIS
        (CHINESE, "gbk", "gb18030"),  # gb18030 is the superset of GBK
        (CHINESE, "gb18030", "gb18030"),
        (KOREAN, "euc_kr", "cp949"),  # cp949 is the superset of EUC-KR
        (RUSSIAN, "koi8_r", "koi8-r"),
        (RUSSIAN, "cp1251", "cp1251"),
    ],
)
def test_legacy_code_pages_decode_to_the_original_text(text, encoding, detected):
    data = text.encode(encoding)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert decode_bytes(data) == decoding.Decoded(text=text, notes=_note(detected))


def test_legacy_paragraph_inside_an_ascii_page():
    text = ENGLISH * 3 + FRENCH + ENGLISH
    assert decode_bytes(text.encode("cp1252")) == decoding.Decoded(text=text, notes=_note("cp1252"))


# --- UTF-16 / UTF-32 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bom", "codec", "note"),
    [
        (b"\xff\xfe", "utf-16-le", "decoded UTF-16 (BOM, little-endian)"),
        (b"\xfe\xff", "utf-16-be", "decoded UTF-16 (BOM, big-endian)"),
        (b"\xff\xfe\x00\x00", "utf-32-le", "decoded UTF-32 (BOM, little-endian)"),
        (b"\x00\x00\xfe\xff", "utf-32-be", "decoded UTF-32 (BOM, big-endian)"),
    ],
)
def test_utf16_and_utf32_with_bom(bom, codec, note, no_detector):
    text = ENGLISH + GERMAN
    assert decode_bytes(bom + text.encode(codec)) == decoding.Decoded(text=text, notes=[note])


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        (ENGLISH + GERMAN, "utf-16-le"),
        (ENGLISH + GERMAN, "utf-16-be"),
        (CHINESE, "utf-16-le"),  # few NUL bytes: only the newlines
        (ENGLISH, "utf-32-le"),
    ],
)
def test_utf16_and_utf32_without_bom(text, codec):
    assert decode_bytes(text.encode(codec)) == decoding.Decoded(text=text, notes=_note(codec))


# --- binary files stay rejected ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "binary file (PNG magic bytes)"),
        (random.Random(1).randbytes(4096), "control bytes"),
        (bytes(2048), "control bytes"),  # all NUL: not UTF-16 either
        (bytes(b | 0x80 for b in random.Random(2).randbytes(4096)), "undecodable bytes"),
        (b"some words here\x00 and \xff more words" * 10, "binary file (NUL bytes and invalid UTF-8)"),
    ],
)
def test_binary_is_rejected(data, reason):
    decoded = decode_bytes(data)
    assert decoded.text is None and reason in (decoded.binary or "")


# --- damaged UTF-8 gets U+FFFD ----------------------------------------------------------------------------


def test_mostly_utf8_with_two_bad_bytes_is_repaired_not_re_guessed():
    head, tail = GERMAN, "Release done 🚀, tests green ✅.\n"
    decoded = decode_bytes(head.encode() + b"\xff" + tail.encode() + b"\xfe")
    assert decoded.notes == ["2 invalid UTF-8 bytes replaced"]
    assert decoded.text == head + "\ufffd" + tail + "\ufffd"


def test_ascii_page_with_a_few_junk_bytes_is_repaired_without_asking_the_detector(no_detector):
    # As cp1252 these read "ÿþý, À¯, â‚": a detector scores that as clean text, so few bad bytes are UTF-8.
    data = ENGLISH.encode() * 20 + b"Stray bytes \xff\xfe\xfd, an overlong \xc0\xaf, a cut \xe2\x82 end.\n"
    decoded = decode_bytes(data)
    assert decoded.notes == ["7 invalid UTF-8 bytes replaced"]
    assert decoded.text is not None and decoded.text.startswith(ENGLISH * 20)


def test_every_invalid_byte_becomes_one_replacement_character(no_detector):
    """The note counts bytes, so the text holds as many U+FFFD: a cut 3-byte sequence gives two."""
    data = ENGLISH.encode() * 20 + "Done ✅:".encode() + b" a cut \xe2\x82 sequence, a stray \xff.\n"
    decoded = decode_bytes(data)
    assert decoded.notes == ["3 invalid UTF-8 bytes replaced"]
    assert decoded.text is not None and decoded.text.count("\ufffd") == 3 and "✅" in decoded.text


# --- bounded work ------------------------------------------------------------------------------------------


def test_detector_sees_a_bounded_sample_of_a_big_file(monkeypatch):
    sizes: list[int] = []
    real = charset_normalizer.from_bytes

    def spy(sample, **kwargs):
        sizes.append(len(sample))
        return real(sample, **kwargs)

    monkeypatch.setattr(charset_normalizer, "from_bytes", spy)
    text = CHINESE * 15_000  # about 2 MB of GBK
    data = text.encode("gbk")
    decoded = decode_bytes(data)
    assert decoded == decoding.Decoded(text=text, notes=_note("gb18030"))
    assert sizes and max(sizes) <= decoding._SAMPLE_BYTES


def test_big_legacy_file_with_its_non_ascii_words_at_the_end_is_detected():
    text = "word " * 50_000 + FRENCH * 100  # the sample skips 250 kB of ASCII to find them
    decoded = decode_bytes(text.encode("cp1252"))
    assert decoded == decoding.Decoded(text=text, notes=_note("cp1252"))


def test_a_few_windows_smart_quotes_in_an_english_page_are_read_as_cp1252():
    """Too few high bytes for a detector to judge, yet each reads as punctuation in cp1252: the page is
    cp1252, not UTF-8 with U+FFFD (as the hand-written decoder did before charset-normalizer)."""
    page = "Prometheus scrapes targets. " * 200 + "It’s simple — “really”." + " More text." * 50
    decoded = decode_bytes(page.encode("cp1252"))
    assert decoded.text == page
    assert decoded.notes == ["decoded as cp1252 (4 non-UTF-8 bytes)"]
