"""The agent's own inputs, checked before any call: the program or function the agent is, the files
its adapter reads (recorded answers, skill texts, tool declarations), its URL, the tools its cases
intercept, and the environment variables its headers name.

The runner builds its adapter from what :func:`check_agent` returns, and `gate validate` calls the
same function, so what one refuses the other refuses too. Checking needs no event loop and no HTTP
client, so it lives apart from the runner: validating a project does not import either.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.case import Case
from gate.config.agent_config import AgentConfig, CommandAgent, HttpAgent, OpenAIAgent, PythonAgent, ReplayAgent
from gate.config.agent_prompt import load_system_prompt, repository_root
from gate.config.agent_tools import check_intercepts, load_skills, load_tools
from gate.errors import GateError
from gate.files import safefiles
from gate.files.spool import Held, TextSpool
from gate.net.headers import HEADER_VARIABLE
from gate.runs.jobs import Job
from gate.runs.records import iter_trajectories

if TYPE_CHECKING:
    from typing_extensions import Self

Place = Callable[[Sequence[int | str]], str | None]
"""Where a gate.yaml setting is written (``gate.yaml:12`` for ``("agent", "url")``), or None."""

PYTHON_NAMES = ("python", "python3")


def nowhere(loc: Sequence[int | str]) -> str | None:
    """The place of a setting when no gate.yaml was read: unknown."""
    return None


class AgentInputs:
    """What an adapter is built from, checked; :meth:`close` lets go of what it holds."""

    def close(self) -> None:
        """Nothing to let go of (the replay file's records are the exception)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True)
class CommandInputs(AgentInputs):
    argv: list[str]
    """The program to run (``python`` resolved to this interpreter) and its arguments."""


@dataclass(frozen=True)
class HttpInputs(AgentInputs):
    url: str


@dataclass(frozen=True)
class PythonInputs(AgentInputs):
    function: Callable[..., Any]


@dataclass(frozen=True)
class ChatInputs(AgentInputs):
    url: str
    """The chat-completions endpoint."""
    prompt: str
    """The team's system prompt ("" when none is set)."""
    skills: dict[str, str]
    """The text of every skill a planned request activates."""
    tools: list[dict[str, Any]]
    """The declared tools, checked."""


class ReplayInputs(AgentInputs):
    """The replay file's records, each validated, then (``keep``) kept as its JSON text in a
    temporary file, the run holding only its place: held in memory, the records' texts grew with
    the recording. Without ``keep`` (no run follows) they are only read."""

    def __init__(self, path: Path, *, keep: bool = True) -> None:
        if not path.exists():
            raise GateError("agent.trajectories: replay file not found", where=str(path))
        self.path = path
        self._spool = TextSpool("the replay file's records")
        self._records: dict[tuple[str, str, int], Held] = {}
        try:
            for record in iter_trajectories(path):
                if keep:
                    self._records[(record.case_id, record.group, record.run)] = self._spool.hold(record.model_dump_json())
        except BaseException:
            self._spool.close()
            raise

    def answer(self, key: tuple[str, str, int]) -> str | None:
        """The recorded trajectory of (case, group, run) as JSON text; None when none was recorded."""
        held = self._records.get(key)
        return None if held is None else self._spool.text(held)

    def close(self) -> None:
        self._spool.close()


def resolve_argv(command: Sequence[str], root: Path, place: Place = nowhere) -> list[str]:
    """The argv to run: ``python`` means this interpreter; a missing program is a GateError."""
    if not command:
        raise GateError("agent.command is empty", where=place(("agent", "command")))
    program, *rest = command
    if program in PYTHON_NAMES:
        return [sys.executable, *rest]
    where = place(("agent", "command", 0))
    if "/" in program:
        path = Path(program) if Path(program).is_absolute() else root / program
        if not path.exists():
            raise GateError(f"agent.command: program '{program}' not found (relative to {root})", where=where)
        return [str(path), *rest]
    if shutil.which(program) is None:
        raise GateError(f"agent.command: program '{program}' not found on PATH", where=where)
    return [program, *rest]


def load_function(spec: str, root: Path, place: Place = nowhere) -> Callable[..., Any]:
    """The callable named by ``module:function`` (dots allowed after the colon), importable from
    ``root``: the module is imported, as the run will."""
    where = place(("agent", "function"))
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise GateError(f"agent.function must look like 'module:function', got '{spec}'", where=where)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))  # the project's own modules, as when run from its directory
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise GateError(f"agent.function: cannot import '{module_name}': {exc}", where=where) from None
    for part in attr.split("."):
        if not hasattr(target, part):
            raise GateError(f"agent.function: '{module_name}' has no attribute '{attr}'", where=where)
        target = getattr(target, part)
    if not callable(target):
        raise GateError(f"agent.function: '{spec}' is not callable", where=where)
    return target  # type: ignore[no-any-return]


def endpoint_url(url: str) -> str:
    """The chat-completions URL from a base URL (…/v1) or the full endpoint."""
    url = url.rstrip("/")
    return url if url.endswith("/chat/completions") else f"{url}/chat/completions"


def check_url(url: str, where: str | None = None) -> None:
    """Raise GateError before any call when httpx could never send a request to ``url``."""
    import httpx  # only an agent behind a URL needs it

    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise GateError(f"agent.url: invalid URL '{url}': {exc}", where=where) from None
    if not parsed.host:
        raise GateError(f"agent.url: '{url}' has no host", where=where)
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise GateError(f"agent.url: port {parsed.port} of '{url}' is not between 1 and 65535", where=where)


def unset_variables(headers: Mapping[str, str], environ: Mapping[str, str] | None = None,
                    place: Place = nowhere) -> list[GateError]:
    """A GateError for each header that names an environment variable not set (values are never said)."""
    env = os.environ if environ is None else environ
    problems = []
    for name, value in headers.items():
        missing = [v for v in HEADER_VARIABLE.findall(value) if v not in env]
        if missing:
            problems.append(GateError(f"agent.headers.{name}: environment variable {missing[0]} is not set",
                                      where=place(("agent", "headers", name))))
    return problems


def check_environment(headers: Mapping[str, str], environ: Mapping[str, str] | None = None) -> None:
    """A GateError, before any call, for a header that names an unset variable."""
    for problem in unset_variables(headers, environ):
        raise problem


def environment_problems(agent: AgentConfig, place: Place = nowhere) -> list[GateError]:
    """What the agent needs from the environment of the run and does not find here: a variable its
    headers name. `gate check` refuses to start without them; `gate validate` warns."""
    return unset_variables(agent.headers, place=place) if isinstance(agent, (HttpAgent, OpenAIAgent)) else []


def _command(agent: CommandAgent, root: Path, planned: Sequence[tuple[Case, str]], place: Place,
             run: bool) -> AgentInputs:
    return CommandInputs(resolve_argv(agent.command, root, place))


def _http(agent: HttpAgent, root: Path, planned: Sequence[tuple[Case, str]], place: Place, run: bool) -> AgentInputs:
    check_url(agent.url, place(("agent", "url")))
    return HttpInputs(agent.url)


def _python(agent: PythonAgent, root: Path, planned: Sequence[tuple[Case, str]], place: Place,
            run: bool) -> AgentInputs:
    return PythonInputs(load_function(agent.function, root, place))


def _replay(agent: ReplayAgent, root: Path, planned: Sequence[tuple[Case, str]], place: Place,
            run: bool) -> AgentInputs:
    # gate.yaml comes with the pull request: the file it names stays in the repository
    path = safefiles.inside(root, agent.trajectories, within=repository_root(root), what="agent.trajectories",
                            where=place(("agent", "trajectories")))
    return ReplayInputs(path, keep=run)


def _openai(agent: OpenAIAgent, root: Path, planned: Sequence[tuple[Case, str]], place: Place,
            run: bool) -> AgentInputs:
    if not agent.model:
        raise GateError("agent.model is required by the openai adapter", where=place(("agent",)))
    url = endpoint_url(agent.url)
    check_url(url, place(("agent", "url")))
    repository = repository_root(root)  # what gate.yaml names is read from the repository only
    skills_dir = safefiles.inside(root, agent.skills_dir, within=repository, what="agent.skills_dir",
                                  where=place(("agent", "skills_dir")))
    skills = load_skills(planned, skills_dir)
    tools = load_tools(agent.tools, root, place, within=repository)
    check_intercepts(planned, tools)
    return ChatInputs(url, load_system_prompt(agent, root), skills, tools)


CHECKS: dict[type, Callable[..., AgentInputs]] = {CommandAgent: _command, HttpAgent: _http, PythonAgent: _python,
                                                 ReplayAgent: _replay, OpenAIAgent: _openai}
"""One check per settings model, as the runner has one builder per settings model."""


def planned_pairs(jobs: Iterable[Job]) -> list[tuple[Case, str]]:
    """Each (case, group) the jobs run, once: what the agent's inputs depend on."""
    return list({(job.case.id, job.group): (job.case, job.group) for job in jobs}.values())


def check_agent(agent: AgentConfig, root: Path, planned: Iterable[tuple[Case, str]], *, place: Place = nowhere,
                run: bool = True) -> AgentInputs:
    """Every input of the agent checked for the planned (case, group) pairs; the first problem is a
    GateError. ``place``: where gate.yaml writes a setting, so an error about it points there.
    ``run``: a run follows, so the variables the headers name must be set here, and what the
    adapter serves from is kept (else, as `gate validate` checks, the same is checked and nothing
    kept, and the caller asks :func:`environment_problems` what to warn of)."""
    if run:
        for problem in environment_problems(agent, place):
            raise problem
    ordered = sorted(planned, key=lambda pair: (pair[0].id, pair[1]))  # the same first problem, however planned
    return CHECKS[type(agent)](agent, root, ordered, place, run)
