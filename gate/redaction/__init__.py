"""Secrets kept out of everything the gate prints: every configured secret in any of its spellings, the terminal's streams, and agent-written text made safe for XML and one-line reports."""
