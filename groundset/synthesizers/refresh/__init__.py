"""Refreshing a test set after the documents changed: the run (keep, follow, drop, replace), finding old
contexts in the new graph (relink) and the needs-review file beside the test set."""
