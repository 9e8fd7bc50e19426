"""Scenarios, single-hop and multi-hop synthesizers, the quality gate and TestsetGenerator."""

from ..samples.testset import Testset, TestsetSample
from .base import Synthesizer
from .generator import TestsetGenerator, parse_distribution
from .multi_hop import MultiHopAbstractQuerySynthesizer, MultiHopSpecificQuerySynthesizer
from .quality import QualityGate
from .scenarios import PersonaPool, QueryMix, Scenario, largest_remainder
from .single_hop import SingleHopSpecificQuerySynthesizer

__all__ = [
    "MultiHopAbstractQuerySynthesizer",
    "MultiHopSpecificQuerySynthesizer",
    "PersonaPool",
    "QualityGate",
    "QueryMix",
    "Scenario",
    "SingleHopSpecificQuerySynthesizer",
    "Synthesizer",
    "Testset",
    "TestsetGenerator",
    "TestsetSample",
    "largest_remainder",
    "parse_distribution",
]
