"""From scenarios to a test set: the generator, the streaming fill (draft, embed, screen, gate), the quality
gate and the cost estimate."""
