"""Persona model, generation from the graph, loading from files."""

from .generate import Cluster, acluster_documents, agenerate_personas, apersonas_of, generate_personas
from .io import load_personas, merge_personas, save_personas
from .model import Persona
from .prompts import PersonaInput, PersonaPrompt
from .roles import reads_as_role

__all__ = [
    "Cluster",
    "Persona",
    "PersonaInput",
    "PersonaPrompt",
    "acluster_documents",
    "agenerate_personas",
    "apersonas_of",
    "generate_personas",
    "load_personas",
    "merge_personas",
    "reads_as_role",
    "save_personas",
]
