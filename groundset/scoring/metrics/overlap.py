"""N-gram overlap of the response with the reference: BLEU and chrF (sacrebleu), ROUGE (rouge-score).

The numbers are the reference libraries' own, scaled to [0, 1], so they can be compared with papers and
other tools; only the tokenisation of text the libraries cannot split into words (Chinese, Japanese,
accented letters for rouge-score) is chosen here, and it is recorded in each result's trace. The
libraries are imported on first use: rouge-score imports nltk, which takes seconds.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...samples.evaluation import SingleTurnSample
from ...text.language import detect_language, language_code, script_language
from ...text.nlp import tokens
from ...text.stems import stem
from ..metric import Metric, MetricResult, ScoringContext
from .text import empty_texts

__all__ = ["BleuScore", "ChrfScore", "RougeScore"]

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
MODES = ("precision", "recall", "fmeasure")
_ROUGE_N = {"rouge1": 1, "rouge2": 2, "rougeL": 1}


class _Tokenizer(Protocol):
    def tokenize(self, text: str) -> list[str]: ...


class _OverlapMetric(Metric):
    columns = ("response", "reference")

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        response, reference = sample.response or "", sample.reference or ""
        return empty_texts(response, reference) or self.compare(response, reference)

    def compare(self, response: str, reference: str) -> MetricResult:
        raise NotImplementedError


def _sacrebleu() -> Any:
    try:
        import sacrebleu
    except ImportError as error:  # a declared dependency: only a broken install gets here
        raise ImportError("bleu_score and chrf_score need sacrebleu: pip install sacrebleu") from error
    return sacrebleu


class BleuScore(_OverlapMetric):
    """sacrebleu's sentence BLEU of the response against one reference, / 100.

    ``tokenize="auto"`` is sacrebleu's default "13a", except for a Chinese reference ("zh": one token per
    Han character) and a Japanese one ("char": one token per character), where "13a" would see a whole
    sentence as one word. Any sacrebleu tokenizer name can be given instead. One reference per sample:
    the reference text is not split into several references.
    """

    name = "bleu_score"

    def __init__(self, *, tokenize: str = "auto", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        known = _sacrebleu().BLEU.TOKENIZERS
        if tokenize != "auto" and tokenize not in known:
            accepted = ", ".join(["auto", *known])
            raise ValueError(f"{self.name}: tokenize must be one of {accepted}, got {tokenize!r}")
        self.tokenize = tokenize

    def tokenizer_for(self, reference: str) -> str:
        if self.tokenize != "auto":
            return self.tokenize
        return {"zh": "zh", "ja": "char"}.get(script_language(reference) or "", "13a")

    def compare(self, response: str, reference: str) -> MetricResult:
        tokenize = self.tokenizer_for(reference)
        bleu = _sacrebleu().sentence_bleu(response, [reference], tokenize=tokenize)
        score = _unit(bleu.score)
        return MetricResult(score, f"BLEU {score:.3f} ({tokenize} tokens)", {"tokenize": tokenize})


class ChrfScore(_OverlapMetric):
    """sacrebleu's sentence chrF of the response against the reference, / 100.

    Character n-grams need no word splitting, so chrF works as is on Chinese and Japanese. ``word_order=2``
    gives chrF++.
    """

    name = "chrf_score"

    def __init__(self, *, char_order: int = 6, word_order: int = 0, beta: int = 2, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        for field, value, least in (("char_order", char_order, 1), ("word_order", word_order, 0)):
            if not isinstance(value, int) or value < least:
                raise ValueError(f"{self.name}: {field} must be an integer >= {least}, got {value!r}")
        self.char_order, self.word_order, self.beta = char_order, word_order, beta

    def compare(self, response: str, reference: str) -> MetricResult:
        chrf = _sacrebleu().sentence_chrf(
            response, [reference], char_order=self.char_order, word_order=self.word_order, beta=self.beta
        )
        score = _unit(chrf.score)
        return MetricResult(score, f"chrF {score:.3f}")


def _unit(percent: float) -> float:
    """A sacrebleu score (0-100) on 0-1; its float sums give 100.00000000000004 for a perfect match."""
    return min(max(percent / 100, 0.0), 1.0)


class WordTokenizer:
    """rouge-score's tokenizer interface over ``groundset.text.nlp.tokens``: casefolded words of any script
    (jieba for Chinese), Snowball-stemmed in the language when ``stemmer`` and Snowball has one."""

    def __init__(self, lang: str, *, stemmer: bool = True) -> None:
        self.lang, self.stemmer = language_code(lang), stemmer

    def tokenize(self, text: str) -> list[str]:
        words = [word.casefold() for word in tokens(text, self.lang)]
        return [stem(word, self.lang) for word in words] if self.stemmer else words


def _ascii_letters(*texts: str) -> bool:
    return all(char.isascii() for text in texts for char in text if char.isalpha())


class RougeScore(_OverlapMetric):
    """rouge-score's ``RougeScorer`` of the response (prediction) against the reference (target).

    rouge-score's tokenizer keeps only ASCII letters and digits: Chinese text gives no word at all and
    "données" becomes "donn es". ``tokenizer="auto"`` uses it when every letter of both texts is ASCII (the
    numbers equal rouge-score's exactly) and ``WordTokenizer`` otherwise, in ``language`` or the
    reference's detected language; "rouge" and "words" force one of them; any object with a
    ``tokenize(text) -> list[str]`` method is used as given. A reference with no n-gram of the type's order
    (no word, or a single word for rouge2) cannot be judged: NaN.
    """

    name = "rouge_score"

    def __init__(
        self,
        *,
        rouge_type: str = "rougeL",
        mode: str = "fmeasure",
        use_stemmer: bool = True,
        tokenizer: str | _Tokenizer = "auto",
        language: str | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if rouge_type not in ROUGE_TYPES:
            raise ValueError(
                f"{self.name}: rouge_type must be one of {', '.join(ROUGE_TYPES)}, got {rouge_type!r}"
            )
        if mode not in MODES:
            raise ValueError(f"{self.name}: mode must be one of {', '.join(MODES)}, got {mode!r}")
        if isinstance(tokenizer, str) and tokenizer not in ("auto", "rouge", "words"):
            raise ValueError(
                f"{self.name}: tokenizer must be 'auto', 'rouge', 'words' or an object with a tokenize(text) "
                f"method, got {tokenizer!r}"
            )
        if not isinstance(tokenizer, str) and not callable(getattr(tokenizer, "tokenize", None)):
            raise ValueError(f"{self.name}: tokenizer {tokenizer!r} has no tokenize(text) method")
        self.rouge_type, self.mode, self.use_stemmer = rouge_type, mode, use_stemmer
        self.tokenizer, self.language = tokenizer, language

    def tokenizer_for(self, response: str, reference: str) -> tuple[_Tokenizer, str]:
        """The tokenizer for this pair, and its name for the trace."""
        if not isinstance(self.tokenizer, str):
            return self.tokenizer, type(self.tokenizer).__name__
        if self.tokenizer == "rouge" or (self.tokenizer == "auto" and _ascii_letters(response, reference)):
            from rouge_score.tokenizers import DefaultTokenizer

            return DefaultTokenizer(self.use_stemmer), "rouge"
        lang = language_code(self.language) if self.language else detect_language(reference)
        return WordTokenizer(lang, stemmer=self.use_stemmer), f"words ({lang})"

    def compare(self, response: str, reference: str) -> MetricResult:
        from rouge_score.rouge_scorer import RougeScorer

        tokenizer, used = self.tokenizer_for(response, reference)
        trace = {"tokenizer": used}
        order = _ROUGE_N[self.rouge_type]
        if len(tokenizer.tokenize(reference)) < order:
            what = "no word" if order == 1 else f"fewer than {order} words"
            return MetricResult.nan(
                f"the reference has {what} for the {used} tokenizer: no {self.rouge_type}", **trace
            )
        scores = RougeScorer([self.rouge_type], tokenizer=tokenizer).score(reference, response)
        score = float(getattr(scores[self.rouge_type], self.mode))
        return MetricResult(score, f"{self.rouge_type} {self.mode} {score:.3f} ({used} tokens)", trace)

    def __repr__(self) -> str:
        return f"RougeScore(rouge_type={self.rouge_type!r}, mode={self.mode!r})"
