"""GitHub integration: the sticky PR comment (`comment`), workflow-command annotations
(`annotations`), and the composite action's results step (`action`)."""

from __future__ import annotations

from gate.formats.commentmark import COMMENT_MARKER
from gate.github.comment import CommentResult, CommentStatus, upsert_comment

__all__ = ["COMMENT_MARKER", "CommentResult", "CommentStatus", "upsert_comment"]
