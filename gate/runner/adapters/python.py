"""The python adapter: ``module:function``, sync (run in its own thread) or async, request dict in."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import itertools
import threading
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from gate.runner.base import AgentError


class PythonAdapter:
    """Calls a Python function per request; a sync one runs in a daemon thread of its own.

    A timed-out async function is cancelled. A timed-out sync one cannot be stopped: its result is
    ignored, and its thread, being a daemon, never delays the exit of ``gate``. A thread per call
    (the engine bounds how many run at once) means a hung call never queues the next one behind it,
    so each call's timeout counts from its own start.
    """

    name = "python"
    handles_retries = False
    cacheable = True

    def __init__(self, spec: str, function: Callable[..., Any], timeout_s: float) -> None:
        """``function``: what ``spec`` names, imported (gate.config.agent_inputs.load_function)."""
        self._spec = spec
        self._function = function
        self._is_async = inspect.iscoroutinefunction(self._function)
        self._timeout = timeout_s
        self._numbers = itertools.count(1)

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return self._spec

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        own = copy.deepcopy(request)  # the function may mutate its argument
        try:
            result = await asyncio.wait_for(self._invoke(own), self._timeout)
        except asyncio.TimeoutError:
            raise AgentError(f"timed out after {self._timeout:g} s", retryable=True) from None
        except AgentError:
            raise
        except (ConnectionError, TimeoutError) as exc:
            raise AgentError(f"{type(exc).__name__}: {exc}", retryable=True) from None
        except Exception as exc:  # the agent's own code failed: an agent error, not ours
            raise AgentError(_raised(self._spec, exc)) from None
        if isinstance(result, BaseModel):
            result = result.model_dump(mode="json")
        if not isinstance(result, dict):
            raise AgentError(f"{self._spec} returned {type(result).__name__}, expected a trajectory dict")
        return result

    async def _invoke(self, request: dict[str, Any]) -> Any:
        if self._is_async:
            result = await self._function(request)
        else:
            result = await self._in_thread(request)
        if inspect.isawaitable(result):  # a sync wrapper around a coroutine
            result = await result
        return result

    def _in_thread(self, request: dict[str, Any]) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if future.done():  # timed out or cancelled: nobody wants the answer any more
                return
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

        def work() -> None:
            result: Any = None
            error: BaseException | None = None
            try:
                result = self._function(request)
            except BaseException as exc:
                # a future refuses StopIteration, and SystemExit must not reach the event loop
                plain = isinstance(exc, Exception) and not isinstance(exc, StopIteration)
                error = exc if plain else AgentError(_raised(self._spec, exc))
            with contextlib.suppress(RuntimeError):  # RuntimeError: the run is over, its loop closed
                loop.call_soon_threadsafe(settle, result, error)

        thread = threading.Thread(target=work, name=f"gate-agent-{next(self._numbers)}", daemon=True)
        thread.start()
        return future

    async def aclose(self) -> None:
        return None  # threads still running are daemons, abandoned with their calls


def _raised(spec: str, exc: BaseException) -> str:
    return f"{spec} raised {type(exc).__name__}: {exc}"
