"""The python adapter: ``module:function``, sync (run in a thread) or async, request dict in."""

from __future__ import annotations

import asyncio
import copy
import importlib
import inspect
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from gate.errors import GateError
from gate.runner.base import AgentError


def load_function(spec: str, root: Path) -> Callable[..., Any]:
    """The callable named by ``module:function`` (dots allowed after the colon), importable from ``root``."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise GateError(f"agent.function must look like 'module:function', got '{spec}'")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))  # the project's own modules, as when run from its directory
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise GateError(f"agent.function: cannot import '{module_name}': {exc}") from None
    for part in attr.split("."):
        if not hasattr(target, part):
            raise GateError(f"agent.function: '{module_name}' has no attribute '{attr}'")
        target = getattr(target, part)
    if not callable(target):
        raise GateError(f"agent.function: '{spec}' is not callable")
    return target  # type: ignore[no-any-return]


class PythonAdapter:
    """Calls a Python function per request; a sync one runs in a worker thread.

    A timed-out async function is cancelled; a timed-out sync one cannot be stopped, so its result
    is ignored and its thread finishes in the background.
    """

    name = "python"
    handles_retries = False
    cacheable = True

    def __init__(self, spec: str, root: Path, timeout_s: float, concurrency: int) -> None:
        self._spec = spec
        self._function = load_function(spec, root)
        self._is_async = inspect.iscoroutinefunction(self._function)
        self._timeout = timeout_s
        self._pool = None if self._is_async else ThreadPoolExecutor(concurrency, thread_name_prefix="gate-agent")

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return self._spec

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        own = copy.deepcopy(request)  # the function may mutate its argument
        try:
            result = await asyncio.wait_for(self._invoke(own), self._timeout)
        except asyncio.TimeoutError:
            raise AgentError(f"timed out after {self._timeout:g} s", retryable=True) from None
        except (ConnectionError, TimeoutError) as exc:
            raise AgentError(f"{type(exc).__name__}: {exc}", retryable=True) from None
        except Exception as exc:  # the agent's own code failed: an agent error, not ours
            raise AgentError(f"{self._spec} raised {type(exc).__name__}: {exc}") from None
        if isinstance(result, BaseModel):
            result = result.model_dump(mode="json")
        if not isinstance(result, dict):
            raise AgentError(f"{self._spec} returned {type(result).__name__}, expected a trajectory dict")
        return result

    async def _invoke(self, request: dict[str, Any]) -> Any:
        if self._is_async:
            result = await self._function(request)
        else:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._pool, self._function, request)
        if inspect.isawaitable(result):  # a sync wrapper around a coroutine
            result = await result
        return result

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
