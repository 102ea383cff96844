"""The semantic tier: an LLM judge for the ``judge:`` rubrics, and human review as the arbiter."""
