"""The base of every model of the gate."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validator is built when first used (``defer_build``): about half of
    the gate's models are only ever validated inside another, whose validator holds theirs, and
    compiling a validator of their own at import was a quarter of what `gate check` imports."""

    model_config = ConfigDict(defer_build=True)
