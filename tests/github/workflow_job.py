"""Runs one job of a workflow the way a Linux runner does, for tests: its `run:` steps in order with
the job's default shell, `${{ }}` evaluated in `env:` and `if:`, step outputs passed on, a failed step
skipping the rest but `if: always()`. Each `uses:` step goes to the test, which does what the action
would; a background process a step leaves running lives on until the job ends, as on a runner."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .composite import Context, StepRun, outputs_of, prepare_step

SHELLS = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail"]}
"""`shell: bash` as the runner runs it (`{0}`: the script file)."""


@dataclass
class JobRun:
    steps: list[StepRun] = field(default_factory=list)

    def step(self, name: str) -> StepRun:
        (found,) = [s for s in self.steps if s.name == name]
        return found

    @property
    def failed(self) -> list[StepRun]:
        return [s for s in self.steps if s.returncode != 0]


Act = Callable[[dict[str, Any]], None]
"""Does what a `uses:` step's action would (or what a substituted `run:` step would), for the test."""


@contextlib.contextmanager
def job_runner(workflow: dict[str, Any], job: str, *, context: Context, env: dict[str, str], workspace: Path,
               runner_temp: Path, act: Act, instead: dict[str, Act] | None = None) -> Iterator[JobRun]:
    """Run ``job``'s steps; ``instead`` maps a `run:` step's name to what the test does in its place.
    Processes the steps leave behind are stopped when the block ends (each step ran in a session of
    its own, so they are found by its group)."""
    spec = workflow["jobs"][job]
    shell = SHELLS[workflow.get("defaults", {}).get("run", {}).get("shell", "bash")]
    result, groups = JobRun(), []
    try:
        for index, step in enumerate(spec["steps"]):
            name = str(step.get("name") or step.get("uses"))
            condition = str(step.get("if", "success()"))
            if (result.failed and "always()" not in condition) or not context.condition(condition):
                result.steps.append(StepRun(name, skipped=True))
                continue
            if "uses" in step or name in (instead or {}):
                (instead or {}).get(name, act)(step)
                result.steps.append(StepRun(name, uses=step.get("uses")))
                continue
            script, output_file, step_env = prepare_step(runner_temp, index, step, env, context)
            process = subprocess.Popen([*shell, str(script)], cwd=workspace, env=step_env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       start_new_session=True)
            groups.append(process.pid)
            stdout, stderr = process.communicate(timeout=180)
            ran = StepRun(name, returncode=process.returncode, stdout=stdout, stderr=stderr,
                          outputs=outputs_of(output_file))
            if "id" in step:
                context.steps[str(step["id"])] = ran.outputs
            result.steps.append(ran)
        yield result
    finally:
        for group in groups:  # the sessions this runner started, and only those
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGTERM)
