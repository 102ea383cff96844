"""Renderers: the terminal table, results.json, JUnit XML and the PR comment."""
