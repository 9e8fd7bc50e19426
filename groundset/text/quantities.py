"""How English writes a quantity and a span of time ("twelve", "3 days", "a few weeks"): regex pieces that
the answer-type checks of scoring and the question templates of the generator both build on."""

from __future__ import annotations

__all__ = ["NUMBER_WORDS", "QUANTITY", "TIME_UNITS"]

NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
    r"hundred|hundreds|thousand|thousands|million|millions|billion|billions|dozen|dozens|half|twice|once|"
    r"single|couple|several|few"
)
TIME_UNITS = r"(?:second|minute|hour|day|week|month|year|decade|century|centuries|millisecond|ms)s?"
QUANTITY = rf"(?:\d[\d,.]*|\b(?:{NUMBER_WORDS})\b)"
