"""English word lists the answer patterns and question templates share (one list per role)."""

from __future__ import annotations

from ..text.sentences import word_set

PREPOSITIONS = word_set(
    """
    with of to in on by for from as into at about
    """
)

DETERMINERS = word_set(
    """
    the a an this that these those its their your our my each every all any some
    """
)

FUNCTION_WORDS = word_set(
    """
    the a an this these those that each every all any some many most no its their our your his her
    such both either neither one two three several other another you we they it there
    """
)

IRREGULAR_BASE = {"has": "have", "does": "do", "is": "be", "goes": "go"}

ADVERBS = word_set(
    """
    now also always never only still just not then already first usually typically
    """
)

# Verbs whose object a "What must X <verb>?" question can ask for.
TRANSITIVE = word_set(
    """
    contain include have use follow match specify produce support expose provide return accept send
    set define reject ignore implement handle honor honour respect emit start end consist begin
    represent carry hold list describe allow take keep store create add avoid perform process call
    pass encode escape parse reference map indicate report apply export expose need require get
    receive
    """
)

IMPERATIVES = word_set(
    """
    use set add run make check ensure separate call avoid consider remove include prefer pass
    configure enable disable restart create follow keep specify try send go click select open choose
    define write start stop install update put move rename look change increase decrease reduce
    limit file contact refer ask report post submit join read navigate visit download expose let
    """
)

AUXILIARIES = word_set(
    """
    is are was were can cannot could should must may might will would does do did has have
    """
)

POINTER_WORDS = word_set(
    """
    this that these those it them here there above below
    """
)
