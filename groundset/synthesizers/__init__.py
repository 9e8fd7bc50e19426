"""Scenarios, the synthesizers of every kind of question, the quality gate, TestsetGenerator and refresh."""

from ..samples.testset import Testset, TestsetSample
from .base import Synthesizer
from .comparative import ComparativeQuerySynthesizer
from .conversational import ConversationalQuerySynthesizer
from .distracting import DistractingQuerySynthesizer
from .double import DoubleQuerySynthesizer
from .generator import TestsetGenerator
from .multi_hop import MultiHopAbstractQuerySynthesizer, MultiHopSpecificQuerySynthesizer
from .out_of_scope import OutOfScopeQuerySynthesizer
from .quality import QualityGate
from .refresh import DroppedSample, RefreshResult, arefresh_testset, needs_review_path, refresh_testset
from .registry import ALL_KINDS, DEFAULT_KINDS, kinds_distribution, parse_distribution
from .scenarios import PersonaPool, QueryMix, Scenario, largest_remainder
from .single_hop import SingleHopSpecificQuerySynthesizer
from .situational import SituationalQuerySynthesizer

__all__ = [
    "SituationalQuerySynthesizer",
    "OutOfScopeQuerySynthesizer",
    "DoubleQuerySynthesizer",
    "DistractingQuerySynthesizer",
    "ConversationalQuerySynthesizer",
    "ComparativeQuerySynthesizer",
    "ALL_KINDS",
    "DEFAULT_KINDS",
    "DroppedSample",
    "MultiHopAbstractQuerySynthesizer",
    "MultiHopSpecificQuerySynthesizer",
    "PersonaPool",
    "QualityGate",
    "QueryMix",
    "RefreshResult",
    "Scenario",
    "SingleHopSpecificQuerySynthesizer",
    "Synthesizer",
    "Testset",
    "TestsetGenerator",
    "TestsetSample",
    "arefresh_testset",
    "kinds_distribution",
    "largest_remainder",
    "needs_review_path",
    "parse_distribution",
    "refresh_testset",
]
