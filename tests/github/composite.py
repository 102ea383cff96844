"""Runs a composite action's steps the way the runner does, for tests: `${{ }}` expressions are
evaluated in `env:`, `with:`, `working-directory` and `if:`; `run:` scripts go to bash as written."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))|(?P<path>[A-Za-z_][\w.-]*(?:\(\))?))")


@dataclass
class StepRun:
    name: str
    skipped: bool = False
    uses: str | None = None
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    steps: list[StepRun]
    outputs: dict[str, str]
    failed: StepRun | None


class Context:
    def __init__(self, inputs: dict[str, str], github: dict[str, str], secrets: dict[str, str] | None = None) -> None:
        self.inputs = inputs
        self.github = github
        self.secrets = secrets or {}
        self.steps: dict[str, dict[str, str]] = {}

    def lookup(self, path: str) -> str:
        if path in ("always()", "success()"):
            return "true"
        labelled = re.fullmatch(r"contains\(github\.event\.pull_request\.labels\.\*\.name, '([^']*)'\)", path)
        if labelled:  # the pull request's labels: github["labels"], comma-separated
            return str(labelled.group(1) in self.github.get("labels", "").split(",")).lower()
        head, _, rest = path.partition(".")
        if head == "inputs":
            return self.inputs.get(rest, "")
        if head == "github":
            return self.github.get(rest, "")
        if head == "secrets":
            return self.secrets.get(rest, "")
        if head == "steps":
            step, _, output = rest.partition(".outputs.")
            return self.steps.get(step, {}).get(output, "")
        raise ValueError(f"unsupported context {path}")

    def substitute(self, text: str) -> str:
        return _EXPR.sub(lambda m: self.lookup(m.group(1)), text)

    def condition(self, expression: str) -> bool:
        """The subset of the expression language the action uses: paths, '...', == != && || ! ()."""
        expression = _EXPR.sub(lambda m: m.group(1), expression)
        parts, pos = [], 0
        while pos < len(expression.rstrip()):
            match = _TOKEN.match(expression, pos)
            if not match:
                raise ValueError(f"cannot evaluate {expression!r}")
            pos = match.end()
            if match.group("str"):
                parts.append(repr(match.group("str")[1:-1].replace("''", "'").lower()))
            elif match.group("op"):
                parts.append({"&&": " and ", "||": " or ", "!": " not "}.get(match.group("op"), match.group("op")))
            else:
                parts.append(repr(self.lookup(match.group("path")).lower()))
        value = eval("".join(parts), {"__builtins__": {}})  # built from the tokens above only
        return value not in ("", "false", "0", False)


def outputs_of(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key] = value
    return found


def run_action(action_file: Path, *, inputs: dict[str, str], github: dict[str, str], env: dict[str, str],
               workspace: Path, runner_temp: Path) -> ActionRun:
    spec: dict[str, Any] = yaml.safe_load(action_file.read_text(encoding="utf-8"))
    values = {name: str(i.get("default", "")) for name, i in spec.get("inputs", {}).items()}
    context = Context(values, github)
    context.inputs.update({k: context.substitute(v) for k, v in values.items()})
    context.inputs.update(inputs)
    steps: list[StepRun] = []
    failed = None
    for index, step in enumerate(spec["runs"]["steps"]):
        name = step.get("name", f"step {index}")
        if failed is not None or ("if" in step and not context.condition(str(step["if"]))):
            steps.append(StepRun(name, skipped=True))
            continue
        if "uses" in step:
            steps.append(StepRun(name, uses=step["uses"]))
            continue
        script, output_file, step_env = prepare_step(runner_temp, index, step, env, context)
        cwd = workspace / context.substitute(step.get("working-directory", "."))
        assert step["shell"] == "bash"
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd,
                              env=step_env, capture_output=True, text=True, timeout=120, check=False)
        result = StepRun(name, returncode=done.returncode, stdout=done.stdout, stderr=done.stderr,
                         outputs=outputs_of(output_file))
        if "id" in step:
            context.steps[step["id"]] = result.outputs
        steps.append(result)
        if done.returncode != 0:
            failed = result
    outputs = {name: context.substitute(str(o["value"])) for name, o in spec.get("outputs", {}).items()}
    return ActionRun(steps, outputs, failed)


def prepare_step(runner_temp: Path, index: int, step: dict[str, Any], env: dict[str, str],
                 context: Context) -> tuple[Path, Path, dict[str, str]]:
    """A `run:` step as a runner sets it up: its script, an empty GITHUB_OUTPUT file, its environment."""
    output_file = runner_temp / f"output-{index}"
    output_file.write_text("", encoding="utf-8")
    script = runner_temp / f"step-{index}.sh"
    script.write_text(step["run"], encoding="utf-8")
    step_env = {**env, **{k: context.substitute(str(v)) for k, v in step.get("env", {}).items()},
                "GITHUB_OUTPUT": str(output_file)}
    return script, output_file, step_env


def base_env(bin_dir: Path) -> dict[str, str]:
    """A clean environment with ``bin_dir`` first on PATH and no token of the outer shell."""
    keep = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV")}
    return {**keep, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "GITHUB_ACTIONS": "true"}


def steps_of(data: dict[Any, Any]) -> list[dict[str, Any]]:
    """The steps of an action (``runs.steps``) or of every job of a workflow."""
    steps = list(data.get("runs", {}).get("steps", []))
    for job in data.get("jobs", {}).values():
        steps += job.get("steps", [])
    return steps
