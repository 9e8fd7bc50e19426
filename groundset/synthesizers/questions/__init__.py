"""How a question and its reference are worded, for every kind: the shared question-writing prompt, the
English templates answer first, the term-based templates of other languages, and the query styles and
lengths users type."""
