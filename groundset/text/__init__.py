"""Text tools every later part may use: Markdown structure, plain text, sentences and words, phrases,
entities, extractive summaries, and the lexical support judge. No model calls, no graph."""
