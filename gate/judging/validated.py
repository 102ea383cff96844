"""Which case files last passed their self-test, by content and by the gate that judged them: a
rerun of `gate validate` judges again only the examples of cases that changed.

A stamp names a case file's digest and the build that judged it — the gate's own modules (path,
size and modification time of each), the versions of the libraries its verdicts depend on, and
Python's — so an edited case, an edited checker or an upgraded Markdown parser judges again. The
file is a cache: unreadable or of another build, it is ignored; it is never trusted in CI, where a
pull request could commit one that claims its broken examples pass.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path

from gate.errors import GateError
from gate.files import safefiles
from gate.files.atomic import replace_text
from gate.files.buildinfo import build, readable

STAMPS = "validated.json"
"""The stamps file, in the project's .gate-cache."""
SCHEMA = "gate.validated/v1"
class Stamps:
    """The stamps file at ``path``: case id → digest of the file that passed, for one build."""

    def __init__(self, path: Path, build_id: str) -> None:
        self.path = path
        self.build_id = build_id
        self._passed: dict[str, str] = {}
        try:  # a FIFO or device planted there is refused unread, as any file that is no stamps file
            data = json.loads(safefiles.read_bytes(self.path, limit=safefiles.DOCUMENT_LIMIT))
        except (GateError, ValueError):
            return  # none yet, or unreadable: every case is judged
        if (isinstance(data, dict) and data.get("schema") == SCHEMA and data.get("build") == build_id
                and isinstance(data.get("cases"), dict)):
            self._passed = {str(k): str(v) for k, v in data["cases"].items()}

    def unchanged(self, case_id: str, digest: str) -> bool:
        """The case's file is the one whose examples last passed, under this build."""
        return self._passed.get(case_id) == digest

    def record(self, passed: Mapping[str, str]) -> None:
        """Keep exactly ``passed`` (case id → digest); a stamp that cannot be written is only a miss."""
        document = {"schema": SCHEMA, "build": self.build_id, "cases": dict(sorted(passed.items()))}
        try:
            replace_text(self.path, json.dumps(document, indent=1) + "\n", durable=False)
        except OSError as exc:
            print(f"gate: warning: the validation stamps cannot be written ({exc.strerror or exc}); "
                  "the next run judges every example again", file=sys.stderr)


def stamps_at(cache: Path | None, env: Mapping[str, str] | None = None) -> Stamps | None:
    """The stamps file in ``cache`` (the project's .gate-cache), or None: no project cache, or CI."""
    directory = readable(cache, env)
    return Stamps(directory / STAMPS, build()) if directory is not None else None
