"""Documents -> KnowledgeGraph (networkx), transforms, persistence."""
