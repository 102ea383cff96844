"""One YAML corpus per text analyser (text → what it reads), loaded by its test module."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml


def corpus(name: str) -> list[Any]:
    """The entries of ``name``.yaml as pytest params, each named by its text."""
    entries = yaml.load((Path(__file__).parent / f"{name}.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return [pytest.param(entry, id=entry["text"]) for entry in entries]
