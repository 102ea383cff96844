"""Formats every output shares: rates, the sticky comment's marker, and GitHub Actions workflow commands."""
