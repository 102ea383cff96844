"""JSON answers: parses as a whole, element count, required fields (English keys), JSON Schema."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal

from pydantic import Field, field_validator

from gate.checkers.base import CountBounds, Params, checker
from gate.files.schema_refs import check_references
from gate.lexicon import source
from gate.subject import Subject
from gate.text.deferred import deferred
from gate.text.jsonanswer import main_array
from gate.verdict import Outcome

_cjk_re = deferred(lambda: source("han"))
_KIND = {"array": list, "object": dict}


class JsonValidParams(Params):
    type: Literal["array", "object", "any"] = "any"
    english_keys: bool = False
    """Field names in Chinese fail: the JSON rule includes its naming norm — English or pinyin keys
    (the seed's violation pattern 3)."""


def chinese_keys(value: Any) -> list[str]:
    """Every object key anywhere in ``value`` that holds a Chinese character, in document order."""
    found: list[str] = []
    pending = [value]
    while pending:  # iterative: the parsed answer is depth-bounded, but a walk must not recurse on it
        node = pending.pop()
        if isinstance(node, dict):
            found += [str(key) for key in node if _cjk_re().search(str(key))]
            pending += reversed(list(node.values()))
        elif isinstance(node, list):
            pending += reversed(node)
    return list(dict.fromkeys(found))


@checker("json:valid", JsonValidParams, "the whole answer parses as JSON (one enclosing json code fence allowed), of the given type")
def json_valid(subject: Subject, params: JsonValidParams) -> Outcome:
    parsed = subject.json
    if not parsed.ok:
        return Outcome.failed(f"the answer is {parsed.problem}")
    if params.type != "any" and not isinstance(parsed.value, _KIND[params.type]):
        return Outcome.failed(f"the answer is JSON but a {type(parsed.value).__name__}, not an {params.type}")
    chinese = chinese_keys(parsed.value) if params.english_keys else []
    if chinese:
        shown = ", ".join(chinese[:5]) + (f" and {len(chinese) - 5} more" if len(chinese) > 5 else "")
        return Outcome.failed(f"the answer is JSON, but its field names are Chinese ({shown}); JSON keys must be "
                              "English or pinyin", tuple(chinese[:5]))
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


# Keys and field names recur in every answer of a case: their splits are kept (bounded, as keys are
# the agent's to choose).
@lru_cache(maxsize=4096)
def _normal_key(key: str) -> str:
    return re.sub(r"[\s_\-]", "", key).casefold()


_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


@lru_cache(maxsize=4096)
def _words(key: str) -> tuple[str, ...]:
    """A key's words: snake_case, kebab-case, camelCase and spaces split (reasonForRecommendation →
    reason, for, recommendation)."""
    return tuple(word.casefold() for word in _WORD_RE.findall(key))


def _names(key: str, name: str, synonyms: list[str]) -> bool:
    """``key`` names the field: equal to its name or a synonym once separators and case are
    dropped, or holding one of them as whole words (reason_for_recommendation names reason)."""
    words = _words(key)
    for option in (name, *synonyms):
        if _normal_key(key) == _normal_key(option):
            return True
        wanted = _words(option)
        if wanted and any(words[i:i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
            return True
    return False


def _assigned(keys: list[str], fields: dict[str, list[str]]) -> list[str]:
    """The fields no distinct key names: one key cannot stand for two fields (city_reason is not a
    city and a reason). A small bipartite matching, fields against keys."""
    candidates = {name: [k for k in keys if _names(k, name, synonyms)] for name, synonyms in fields.items()}
    owner: dict[str, str] = {}

    def place(name: str, seen: set[str]) -> bool:
        for key in candidates[name]:
            if key in seen:
                continue
            seen.add(key)
            if key not in owner or place(owner[key], seen):
                owner[key] = name
                return True
        return False

    return [name for name in fields if not place(name, set())]


class JsonFieldsParams(Params):
    fields: dict[str, list[str]] = Field(min_length=1)
    """Each required field by its English name, with accepted synonyms (city: [city_name, name]); a key
    holding the name or a synonym as whole words counts too (reason_for_recommendation, cityName)."""
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
            chinese = [key for key in keys if _cjk_re().search(key)]
            if chinese:
                return Outcome.failed(
                    f"element {index} uses Chinese keys {chinese}; JSON field names must be English",
                    tuple(chinese),
                )
        missing = _assigned(keys, params.fields)
        if missing:
            return Outcome.failed(f"element {index} lacks {missing}; it has {keys}", tuple(missing))
        empty = [key for key in keys if _is_required(key, params) and element[key] in (None, "", [], {})]
        if empty:
            return Outcome.failed(f"element {index} has empty {empty}", tuple(empty))
    return Outcome.passed(f"all {len(elements)} elements have {sorted(params.fields)}")


def _is_required(key: str, params: JsonFieldsParams) -> bool:
    return any(_names(key, name, synonyms) for name, synonyms in params.fields.items())


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
        check_references(value)
        return value


@checker("json:schema", JsonSchemaParams, "the JSON answer validates against a JSON Schema")
def json_schema(subject: Subject, params: JsonSchemaParams) -> Outcome:
    import jsonschema

    if not subject.json.ok:
        return Outcome.failed(f"cannot validate: the answer is {subject.json.problem}")
    from referencing import Registry

    validator_class = jsonschema.validators.validator_for(params.schema_)
    # an empty registry: nothing outside the schema is ever fetched (its references were checked too)
    validator = validator_class(params.schema_, registry=Registry())
    errors = sorted(validator.iter_errors(subject.json.value), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = first.json_path
        return Outcome.failed(f"{len(errors)} schema error(s); first at {where}: {first.message}")
    return Outcome.passed("the answer validates against the schema")
