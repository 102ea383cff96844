"""gate.yaml and the agent's own inputs (its settings, program, prompt, tools), checked before any call."""
