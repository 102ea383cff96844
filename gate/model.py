"""The base of every model of the gate."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validator is built when first used (``defer_build``): about half of
    the gate's models are only ever validated inside another, whose validator holds theirs, and
    compiling a validator of their own at import was a quarter of what `gate check` imports."""

    model_config = ConfigDict(defer_build=True)


_FIELD_NAME_SETS: dict[frozenset[str], set[str]] = {}


class SharedFieldNames(Model):
    """An immutable model whose instances share one set of the names of the fields they were given.

    pydantic keeps that set (``model_fields_set``) per instance: 216–472 bytes, over half of what a
    run's verdict holds (16,700 verdicts at 6,000 cases: ~40 MiB) and a sixth of a loaded case.
    Frozen, so nothing adds to the set in place; ``model_copy`` copies it before adding.
    """

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if not cls.model_config.get("frozen"):
            raise TypeError(f"{cls.__name__}: only a frozen model may share its field-name sets")

    def model_post_init(self, context: Any, /) -> None:
        given = self.__pydantic_fields_set__
        shared = _FIELD_NAME_SETS.setdefault(frozenset(given), given)
        object.__setattr__(self, "__pydantic_fields_set__", shared)
