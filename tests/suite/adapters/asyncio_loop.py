"""A newcomer's engine on the standard library's asyncio: the measuring stick of a first run.

An event loop runs in a background thread; ``fork`` schedules a task on it that
runs the function on the loop's default executor (``run_in_executor(None,
...)``, a ThreadPoolExecutor of six threads), ``wait`` blocks on the
``concurrent.futures.Future`` that ``run_coroutine_threadsafe`` gives, and
``Future`` wraps it. Written as a user would write it, claiming ``core`` and
``async``: a task that waits on a task it forked holds one of the six threads
while it waits, so nested waits past six threads deadlock for good - the cascade
of stuck examples whose cost the deadlock detector (conformance/executor/
deadlock.py) cuts. Nothing here is tuned to the suite.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from conformance.adapter import Adapter, fw_from

T = TypeVar("T")
#: the default executor's size on the user's machine
WORKERS = 6


class Future(Generic[T]):
    """A forked task's result, as the loop's thread-safe future gives it."""

    def __init__(self, inner: concurrent.futures.Future[T]) -> None:
        self._inner = inner

    def done(self) -> bool:
        return self._inner.done()

    def wait(self) -> T:
        return self._inner.result()


def script(obj: T) -> T:
    """No compiler: scripted code is plain Python."""
    return obj


ignore = script


class Module:
    """A call calls ``forward``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")


ModuleList = list


def wait(future: Future[T]) -> T:
    return future.wait()


def wait_all(futures: Iterable[Future[T]]) -> list[T]:
    return [future.wait() for future in futures]


def adapter() -> Adapter:
    """Start the loop in its thread, with a default executor of WORKERS threads."""
    loop = asyncio.new_event_loop()
    loop.set_default_executor(
        concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="aio")
    )
    threading.Thread(target=loop.run_forever, name="aio-loop", daemon=True).start()

    def fork(func: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        async def task() -> T:
            return await loop.run_in_executor(None, functools.partial(func, *args, **kwargs))

        return Future(asyncio.run_coroutine_threadsafe(task(), loop))

    def collect_all(futures: list[Future[T]]) -> Future[list[Future[T]]]:
        async def all_done() -> list[Future[T]]:
            await asyncio.gather(*(asyncio.wrap_future(f._inner) for f in futures))
            return list(futures)

        return Future(asyncio.run_coroutine_threadsafe(all_done(), loop))

    fw = fw_from(
        {
            "fork": fork,
            "wait": wait,
            "Future": Future,
            "script": script,
            "ignore": ignore,
            "Module": Module,
            "ModuleList": ModuleList,
            "collect_all": collect_all,
            "wait_all": wait_all,
        },
        "asyncio: a loop in a background thread, tasks on its default executor",
    )
    return Adapter(name="asyncio-loop", version="1", fw=fw, profiles=frozenset({"core", "async"}))
