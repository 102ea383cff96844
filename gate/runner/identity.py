"""What identifies the agent build in the cache key, so a changed agent is never served old answers.

``agent.identity`` when set. Otherwise derived: the content of the files the agent's command or
python module names (the agent script, not the whole tree it imports), plus the commit under test
when CI says which (``GITHUB_SHA``). An http or openai agent outside CI has nothing to derive from:
then the cache is keyed without an identity and the run warns about it. What an adapter sends
besides the request (the openai adapter's model, tools and whole system message, the team's prompt
included) is in its ``fingerprint``, which keys the cache beside the identity.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path

from gate.config.agent_config import AgentConfig, CommandAgent, PythonAgent, ReplayAgent
from gate.files import safefiles

_COMMIT_ENV = ("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT")


def _named_files(agent: AgentConfig, root: Path) -> list[Path]:
    if isinstance(agent, CommandAgent):
        candidates = [root / arg for arg in agent.command[1:] + agent.command[:1] if not arg.startswith("-")]
        return sorted({path for path in candidates if path.is_file()})
    if isinstance(agent, PythonAgent):
        module = agent.function.split(":", 1)[0]
        local = root / (module.replace(".", "/") + ".py")
        if local.is_file():
            return [local]
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return []
        origin = spec.origin if spec is not None else None
        return [Path(origin)] if origin and Path(origin).is_file() else []
    if isinstance(agent, ReplayAgent) and (root / agent.trajectories).is_file():
        return [root / agent.trajectories]
    return []


def agent_identity(agent: AgentConfig, root: Path, env: Mapping[str, str]) -> str | None:
    """The identity the cache key carries: configured, else derived (see the module docstring)."""
    if agent.identity:
        return agent.identity
    digest = hashlib.sha256()
    found = False
    for path in _named_files(agent, root):
        digest.update(path.name.encode("utf-8") + b"\0")
        with safefiles.open_stream(path, what="agent file") as handle:  # a regular file, hashed a piece at a time
            for piece in iter(lambda: handle.read(safefiles.MiB), b""):
                digest.update(piece)
        digest.update(b"\0")
        found = True
    commit = next((env[name] for name in _COMMIT_ENV if env.get(name)), None)
    if commit:
        digest.update(b"commit\0" + commit.encode("utf-8"))
        found = True
    return f"auto:{digest.hexdigest()[:16]}" if found else None
