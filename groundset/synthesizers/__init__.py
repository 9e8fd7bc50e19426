"""Scenarios, single-hop and multi-hop synthesizers, TestsetGenerator."""
