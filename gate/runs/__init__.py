"""What the runner runs and what it records: the jobs, trajectory files, and recorded tool calls."""
