"""JSON answers: parses as a whole, element count, required fields (English keys), JSON Schema."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator

from gate.checkers.base import CountBounds, Params, checker
from gate.subject import Subject
from gate.text.jsonanswer import main_array
from gate.verdict import Outcome

_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_KIND = {"array": list, "object": dict}


class JsonValidParams(Params):
    type: Literal["array", "object", "any"] = "any"


@checker("json:valid", JsonValidParams, "the whole answer parses as JSON (one enclosing json code fence allowed), of the given type")
def json_valid(subject: Subject, params: JsonValidParams) -> Outcome:
    parsed = subject.json
    if not parsed.ok:
        return Outcome.failed(f"the answer is {parsed.problem}")
    if params.type != "any" and not isinstance(parsed.value, _KIND[params.type]):
        return Outcome.failed(f"the answer is JSON but a {type(parsed.value).__name__}, not an {params.type}")
    fence = " (inside a ```json fence)" if parsed.fenced else ""
    return Outcome.passed(f"the answer parses as JSON{fence}")


class JsonCountParams(CountBounds):
    pass


@checker("json:count", JsonCountParams, "the JSON answer's main array has the required number of elements")
def json_count(subject: Subject, params: JsonCountParams) -> Outcome:
    if not subject.json.ok:
        return Outcome.failed(f"cannot count elements: the answer is {subject.json.problem}")
    found = main_array(subject.json.value)
    if found is None:
        return Outcome.failed("the JSON answer holds no array of items")
    path, array = found
    detail = f"{len(array)} elements in {path}; {params.describe()} required"
    return Outcome.of(params.admits(len(array)), detail)


def _normal_key(key: str) -> str:
    return re.sub(r"[\s_\-]", "", key).casefold()


class JsonFieldsParams(Params):
    fields: dict[str, list[str]] = Field(min_length=1)
    """Each required field by its English name, with accepted synonyms (city: [city_name, name])."""
    ascii_keys: bool = True
    """Chinese keys fail, per the seed's violation pattern 3."""


@checker("json:fields", JsonFieldsParams, "every element of the JSON answer has each required field (English key or synonym)")
def json_fields(subject: Subject, params: JsonFieldsParams) -> Outcome:
    if not subject.json.ok:
        return Outcome.failed(f"cannot check fields: the answer is {subject.json.problem}")
    value = subject.json.value
    found = main_array(value)
    if found is not None and not found[1]:
        return Outcome.failed(f"the JSON array {found[0]} is empty: no element has {sorted(params.fields)}")
    elements: list[Any] = found[1] if found else [value]
    for index, element in enumerate(elements):
        if not isinstance(element, dict):
            return Outcome.failed(f"element {index} is a {type(element).__name__}, not an object")
        keys = [str(key) for key in element]
        if params.ascii_keys:
            chinese = [key for key in keys if _CJK_RE.search(key)]
            if chinese:
                return Outcome.failed(
                    f"element {index} uses Chinese keys {chinese}; JSON field names must be English",
                    tuple(chinese),
                )
        normal = {_normal_key(key) for key in keys}
        missing = [
            name for name, synonyms in params.fields.items()
            if not normal & {_normal_key(n) for n in (name, *synonyms)}
        ]
        if missing:
            return Outcome.failed(f"element {index} lacks {missing}; it has {keys}", tuple(missing))
        empty = [key for key in keys if _is_required(key, params) and element[key] in (None, "", [], {})]
        if empty:
            return Outcome.failed(f"element {index} has empty {empty}", tuple(empty))
    return Outcome.passed(f"all {len(elements)} elements have {sorted(params.fields)}")


def _is_required(key: str, params: JsonFieldsParams) -> bool:
    return any(_normal_key(key) in {_normal_key(n) for n in (name, *synonyms)} for name, synonyms in params.fields.items())


class JsonSchemaParams(Params):
    schema_: dict[str, Any] = Field(alias="schema")

    @field_validator("schema_")
    @classmethod
    def _valid_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        import jsonschema

        try:
            jsonschema.validators.validator_for(value).check_schema(value)
        except jsonschema.SchemaError as exc:
            raise ValueError(f"not a valid JSON Schema: {exc.message}") from None
        return value


@checker("json:schema", JsonSchemaParams, "the JSON answer validates against a JSON Schema")
def json_schema(subject: Subject, params: JsonSchemaParams) -> Outcome:
    import jsonschema

    if not subject.json.ok:
        return Outcome.failed(f"cannot validate: the answer is {subject.json.problem}")
    validator_class = jsonschema.validators.validator_for(params.schema_)
    errors = sorted(validator_class(params.schema_).iter_errors(subject.json.value), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = first.json_path
        return Outcome.failed(f"{len(errors)} schema error(s); first at {where}: {first.message}")
    return Outcome.passed("the answer validates against the schema")
