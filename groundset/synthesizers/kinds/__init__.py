"""The kinds of question, one module (or subpackage) each: its synthesizer's scenario rule, its prompt and
its offline form. Kinds built on two chunks share ``pairs``; ``term_based`` writes
them in languages without facts."""
