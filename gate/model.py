"""The base of every model of the gate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from typing_extensions import Self


class Model(BaseModel):
    """A pydantic model whose validator is built when first used (``defer_build``): about half of
    the gate's models are only ever validated inside another, whose validator holds theirs, and
    compiling a validator of their own at import was a quarter of what `gate check` imports."""

    model_config = ConfigDict(defer_build=True)


_FIELD_NAME_SETS: dict[frozenset[str], set[str]] = {}


def _shared(names: set[str]) -> set[str]:
    """The one set of these field names the instances share (``names`` itself the first time)."""
    return _FIELD_NAME_SETS.setdefault(frozenset(names), names)


class SharedFieldNames(Model):
    """An immutable model whose instances share one set of the names of the fields they were given.

    pydantic keeps that set (``model_fields_set``) per instance: over half of what a run's verdict
    holds, held for every run until the reports are written, and a good part of a loaded case
    (benchmarks/README.md (h)).
    Frozen, so nothing adds to a set in place but ``model_copy``, which does it to a copy of its own
    first; the copy then shares too.
    """

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if not cls.model_config.get("frozen"):
            raise TypeError(f"{cls.__name__}: only a frozen model may share its field-name sets")

    def model_post_init(self, context: Any, /) -> None:
        _share_field_names(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        _share_field_names(copied)
        return copied


def _share_field_names(model: BaseModel) -> None:
    """Give ``model`` the one shared set of its field names. The gate's only write into pydantic's
    per-instance state (a frozen model's set is only read, or replaced by ``model_copy``), kept here:
    tests/test_pydantic_internals.py refuses one anywhere else."""
    object.__setattr__(model, "__pydantic_fields_set__", _shared(model.__pydantic_fields_set__))
