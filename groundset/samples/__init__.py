"""The sample data model: test-set samples and evaluation samples, and their file formats.

One home below both the generator and scoring, so a Testset converts to an EvaluationDataset
without either part importing the other.
"""

from .dataset import EvaluationDataset
from .evaluation import MultiTurnSample, SingleTurnSample
from .testset import Testset, TestsetSample

__all__ = ["EvaluationDataset", "MultiTurnSample", "SingleTurnSample", "Testset", "TestsetSample"]
