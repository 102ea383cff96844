"""The team's system prompt for the openai adapter: ``agent.system_prompt`` inline, or
``agent.system_prompt_file`` read from the repository.

Without it the gate would test the bare model rather than the team's agent, so a named file that
cannot be used is an error before the first call, never a silent run without a prompt.
"""

from __future__ import annotations

from pathlib import Path

from gate.config.agent_config import OpenAIAgent
from gate.errors import GateError
from gate.files import yamlio

_KEY = "agent.system_prompt_file"
_CONFIG = "gate.yaml"


def repository_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding ``.git`` (a directory, or a file in a
    worktree); ``start`` itself outside any repository."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def _problem(message: str) -> GateError:
    return GateError(f"{_KEY}: {message}", where=_CONFIG)


def load_system_prompt(agent: OpenAIAgent, root: Path) -> str:
    """The prompt text (trimmed), or "" when neither key is set. ``root``: gate.yaml's directory,
    which a relative ``system_prompt_file`` is read from."""
    if agent.system_prompt is not None:
        return agent.system_prompt.strip()
    if agent.system_prompt_file is None:
        return ""
    named = Path(agent.system_prompt_file)
    path = (named if named.is_absolute() else root / named).resolve()
    repository = repository_root(root)
    # gate.yaml comes with the pull request: a prompt read from outside the repository (a runner's
    # credentials, say) would be sent to the endpoint the same pull request names
    if not path.is_relative_to(repository):
        raise _problem(f"'{agent.system_prompt_file}' is outside the repository ({repository})")
    if path.is_dir():
        raise _problem(f"{path} is a directory, not a prompt file")
    try:
        text = yamlio.read_text(path).strip()
    except GateError as error:
        raise _problem(f"{path}: {str(error).removeprefix(f'{path}: ')}") from None
    if not text:
        raise _problem(f"{path} is empty; remove the key to test the bare model")
    return text
