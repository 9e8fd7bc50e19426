"""Out-of-scope questions: the synthesizer, its prompts, the check that the corpus does not answer them
after all (evidence), and how an aspect is worded in each language (the tables live in
``groundset.languages``)."""
