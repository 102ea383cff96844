"""The marker that makes the pull-request comment sticky: the report writes it into comment.md and
delivery finds the comment to update by it. Kept apart from both, so that rendering a report never
imports the GitHub client (nor httpx)."""

COMMENT_MARKER = "<!-- agent-gate:pr-comment -->"
