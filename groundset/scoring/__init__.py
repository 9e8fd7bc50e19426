"""Samples and datasets, metrics, evaluate(), results and reports."""
