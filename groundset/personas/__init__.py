"""Persona model, generation from the graph, loading from files."""
