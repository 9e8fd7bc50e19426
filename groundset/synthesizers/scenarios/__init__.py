"""What a question is made from, found before any call: the answer-bearing facts of each chunk (English
answer patterns, the passages around them, the subjects worth asking about), the fact index and fact pairs
over the whole graph, and the scenarios themselves with where more come from and how they spread over
the corpus."""
