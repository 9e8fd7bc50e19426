"""Conversational questions: the synthesizer (scenarios of 2 to 4 turns about one subject) and its prompt
with the offline form."""
