"""Scenarios, the synthesizers of every kind of question, the quality gate, TestsetGenerator and refresh."""

from ..samples.testset import Testset, TestsetSample
from .base import Synthesizer
from .kinds.comparative import ComparativeQuerySynthesizer
from .kinds.conversational.synthesizer import ConversationalQuerySynthesizer
from .kinds.distracting import DistractingQuerySynthesizer
from .kinds.double import DoubleQuerySynthesizer
from .kinds.multi_hop import MultiHopAbstractQuerySynthesizer, MultiHopSpecificQuerySynthesizer
from .kinds.out_of_scope.synthesizer import OutOfScopeQuerySynthesizer
from .kinds.single_hop import SingleHopSpecificQuerySynthesizer
from .kinds.situational import SituationalQuerySynthesizer
from .pipeline.generator import TestsetGenerator
from .pipeline.quality import QualityGate
from .refresh.run import DroppedSample, RefreshResult, arefresh_testset, needs_review_path, refresh_testset
from .registry import ALL_KINDS, DEFAULT_KINDS, kinds_distribution, parse_distribution
from .scenarios.scenario import PersonaPool, QueryMix, Scenario, largest_remainder

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
