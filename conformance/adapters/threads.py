"""The adapter for the standard library's ``concurrent.futures`` (``--impl threads``).

The engine is a ``ThreadPoolExecutor`` exactly as ``ThreadPoolExecutor()``
builds it: ``fork`` is its ``submit``, ``wait`` is ``Future.result``, futures
are the standard library's own. What the spec names and the standard library
lacks (a compiler, a module class, combinators of futures) is filled by the
plain Python a newcomer would write, with no locking, threads or futures of
this project's in between: whatever the suite measures is the standard
library's behaviour. docs/validating.rst shows this file as the worked example
of an adapter.
"""

from __future__ import annotations

import concurrent.futures
import platform
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from conformance.adapter import Adapter, fw_from
from conformance.catalog.expectations import load_entries

#: what ThreadPoolExecutor is known to fail, each with the reason
XFAILS_FILE = Path(__file__).with_name("threads_xfails.toml")
#: what hangs on it (a wait that needs a thread the pool no longer has): never run
SKIPS_FILE = Path(__file__).with_name("threads_skips.toml")

T = TypeVar("T")


def script(obj: T) -> T:
    """No compiler: scripted code is plain Python, so ``script`` gives ``obj`` back."""
    return obj


#: nor a ``torch.jit.ignore``: scripted code may call anything
ignore = script


class Module:
    """``torch.nn.Module``'s one duty the examples need: a call calls ``forward``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")


#: a list is all an ensemble of modules needs: iteration, len, indexing
ModuleList = list


def wait_all(futures: Iterable[concurrent.futures.Future[T]]) -> list[T]:
    """The results in order: the obvious loop over ``Future.result``."""
    return [future.result() for future in futures]


def adapter() -> Adapter:
    """Build the adapter: one ThreadPoolExecutor with the standard defaults."""
    pool = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="fw")

    def collect_all(
        futures: list[concurrent.futures.Future[T]],
    ) -> concurrent.futures.Future[list[concurrent.futures.Future[T]]]:
        """A future of the same futures, in a new list, once all are done: a task
        waiting on them."""

        def all_done() -> list[concurrent.futures.Future[T]]:
            concurrent.futures.wait(futures)
            return list(futures)  # the caller's list stays the caller's

        return pool.submit(all_done)

    fw = fw_from(
        {
            "fork": pool.submit,
            "wait": concurrent.futures.Future.result,
            "Future": concurrent.futures.Future,
            "script": script,
            "ignore": ignore,
            "Module": Module,
            "ModuleList": ModuleList,
            "collect_all": collect_all,
            "wait_all": wait_all,
        },
        "concurrent.futures.ThreadPoolExecutor, as the spec's examples see it",
    )
    return Adapter(
        name="threads",
        # concurrent.futures is the standard library's: its version is Python's
        version=f"Python {platform.python_version()}",
        fw=fw,
        # not "dynamic": its recursive forks exhaust the pool as NEST-LEVELS-1 does; not
        # "futures": concurrent.futures.Future has result(), not wait(), value(), then()
        profiles=frozenset({"core", "async"}),
        expected_failures=load_entries(XFAILS_FILE),
        skips=load_entries(SKIPS_FILE, "skips"),
    )
