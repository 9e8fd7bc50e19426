"""Samples and datasets, metrics, evaluate(), results and reports."""

from .dataset import EvaluationDataset
from .samples import MultiTurnSample, SingleTurnSample

__all__ = ["EvaluationDataset", "MultiTurnSample", "SingleTurnSample"]
