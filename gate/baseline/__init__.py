"""The committed baseline: its storage and what a new one changes."""
