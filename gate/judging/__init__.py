"""One trajectory against its case: the rule checkers' verdicts, the case set's self-test, and the caches of both."""
