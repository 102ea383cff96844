"""What the openai adapter offers the model, checked before any call: the text of each active skill,
the agent's declared tools (OpenAI function tools with valid JSON-Schema parameters), and the tools
the cases intercept — each one of those declared, when any are."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gate.case import Case
from gate.errors import GateError, did_you_mean
from gate.files import safefiles, yamlio
from gate.files.schema_refs import check_references

PERMISSIVE = {"type": "object", "properties": {}, "additionalProperties": True}
"""The parameters of a tool declared without any: every argument accepted."""


def _case_place(case: Case, loc: Sequence[int | str]) -> str | None:
    """``file:line`` of a case's setting at ``loc``; None for a case not read from a file."""
    return yamlio.place_in(case.path, loc) if case.path else None


def load_skills(planned: Sequence[tuple[Case, str]], skills_dir: Path) -> dict[str, str]:
    """The text of every skill a planned (case, group) activates, each a regular file inside
    ``skills_dir``; a missing file, or a name that leads out of the folder, is a GateError."""
    texts: dict[str, str] = {}
    for case, group in planned:
        settings = case.groups[group]  # type: ignore[index]
        if not settings.skill_enabled:
            continue
        for index, skill in enumerate(settings.active_skills):
            if skill in texts:
                continue
            where = _case_place(case, ("groups", group, "active_skills", index))
            what = f"active skill (case {case.id}, group {group})"
            path = safefiles.inside(skills_dir, f"{skill}.md", what=what, where=where)
            if not path.exists() and not path.is_symlink():
                raise GateError(f"skill file not found for active skill '{skill}' (case {case.id}, group {group}): "
                                f"expected {path}", where=where)
            raw = safefiles.read_bytes(path, what=what, reference=f"{skill}.md", where=where, limit=safefiles.SKILL_LIMIT)
            try:
                texts[skill] = raw.decode("utf-8").strip()
            except UnicodeDecodeError as exc:
                raise GateError(f"{what} '{skill}': {path} is not UTF-8 text (byte {exc.start})", where=where) from None
    return texts


def load_tools(tools: str | Sequence[Mapping[str, Any]], root: Path,
               place: Callable[[Sequence[int | str]], str | None], within: Path | None = None) -> list[dict[str, Any]]:
    """``agent.tools`` read (a file is JSON or YAML) and checked: OpenAI function tools with unique
    names and valid JSON-Schema parameters. ``place``: where gate.yaml writes a setting; a tools
    file is read from ``root`` and must lie inside ``within`` (``root`` unless given)."""
    data: Any = tools
    if isinstance(tools, str):
        path = safefiles.inside(root, tools, within=within, what="agent.tools", where=place(("agent", "tools")))
        if not path.exists() and not path.is_symlink():
            raise GateError("tools file not found (agent.tools)", where=str(path))
        data = yamlio.load(path, yamlio.read_text(path))

        def problem(index: int | None, message: str) -> GateError:
            return GateError(message, where=str(path))
    else:
        def problem(index: int | None, message: str) -> GateError:
            return GateError(f"agent.tools: {message}", where=place(("agent", "tools") if index is None
                                                                     else ("agent", "tools", index)))
    if not isinstance(data, (list, tuple)):
        raise problem(None, "tools must be a list of OpenAI function tools")
    import jsonschema

    found: list[dict[str, Any]] = []
    for index, tool in enumerate(data):
        function: Any = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(function, dict) or tool.get("type", "function") != "function" or not isinstance(name, str) \
                or not name:
            raise problem(index, f"tools[{index}]: expected {{type: function, function: {{name, description, parameters}}}}")
        parameters = function.get("parameters", PERMISSIVE)
        try:
            jsonschema.Draft202012Validator.check_schema(parameters)
        except jsonschema.SchemaError as exc:
            raise problem(index, f"tools[{index}] ({name}): parameters is not a valid JSON Schema: {exc.message}") from None
        try:
            check_references(parameters)
        except ValueError as exc:
            raise problem(index, f"tools[{index}] ({name}): parameters.{exc}") from None
        if any(t["function"]["name"] == name for t in found):
            raise problem(index, f"tools[{index}]: tool '{name}' is declared twice")
        found.append({"type": "function", "function": {**function, "parameters": parameters}})
    return found


def check_intercepts(planned: Sequence[tuple[Case, str]], tools: Sequence[Mapping[str, Any]]) -> None:
    """With tools declared, each tool a planned case intercepts (in any of its input variants, which
    confirm reruns may reach) must be one of them: an intercept of another name would offer the
    model a tool the agent does not have (a misspelt one, both)."""
    declared = [str(tool["function"]["name"]) for tool in tools]
    if not declared:
        return  # no declarations: the intercepted tools are what the model is offered
    for case in {case.id: case for case, _ in planned}.values():
        assert case.input is not None, "aggregate cases are never planned"
        variants = case.input.variants
        inputs = [(("input", "variants", v), variant) for v, variant in enumerate(variants)] if variants \
            else [(("input",), case.input)]
        for prefix, case_input in inputs:
            for index, intercept in enumerate(case_input.tool_intercepts):
                if intercept.tool in declared:
                    continue
                loc = (*prefix, "tool_intercepts", index, "tool")
                where = _case_place(case, loc)
                raise GateError(f"{'' if where else f'case {case.id}: '}{yamlio.dotted(loc)}: '{intercept.tool}' "
                                f"is not a tool of agent.tools (declared: {', '.join(declared)})"
                                f"{did_you_mean(intercept.tool, declared)}; declare it there, or intercept a "
                                "declared tool", where=where)
