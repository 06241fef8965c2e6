"""The adapter for Ray (``--impl ray``; needs the ``ray`` extra, ray==2.60.0).

Ray's own API, as a Ray user writes it: ``fork(fn, *args)`` is
``ray.remote(fn).remote(*args)``, ``wait`` is ``ray.get``, a future is Ray's
``ObjectRef``, ``wait_all`` is ``ray.get`` of a list. A local Ray (one node,
the machine's CPUs, no dashboard) starts when the adapter is chosen; every
task runs in a worker process of its own, so what a task receives is a pickled
copy. The names Ray lacks (a compiler, a module class) are the plain Python of
the threads adapter (conformance/adapters/threads.py).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.adapter import Adapter, fw_from
from conformance.adapters.threads import Module, ModuleList, ignore, script
from conformance.catalog.expectations import load_entries

XFAILS_FILE = Path(__file__).with_name("ray_xfails.toml")
SKIPS_FILE = Path(__file__).with_name("ray_skips.toml")

#: Ray's own noise in the examples of this adapter (pytest ``filterwarnings`` entries)
WARNING_FILTERS = ("ignore::DeprecationWarning:ray.*", "ignore::FutureWarning:ray.*")


def fork(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``ray.remote(fn).remote(*args, **kwargs)``: a Ray task, its ObjectRef as the future."""
    import ray  # noqa: PLC0415 - importable in Ray's workers too, where nested forks run

    return ray.remote(fn).remote(*args, **kwargs)


def collect_all(futures: list[Any]) -> Any:
    """Ray's way to wait for all without fetching: ``ray.wait``, then the refs, put back."""
    import ray  # noqa: PLC0415

    ray.wait(futures, num_returns=len(futures))
    return ray.put(futures)


def start() -> None:
    """A local Ray on this machine's CPUs, without dashboard or usage report; once per process."""
    import ray  # noqa: PLC0415

    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        num_cpus=os.cpu_count(),
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )


def adapter() -> Adapter:
    """Build the Ray adapter (imports ray only when chosen, and starts it)."""
    import ray  # noqa: PLC0415

    start()
    fw = fw_from(
        {
            "fork": fork,
            "wait": ray.get,
            "Future": ray.ObjectRef,
            "script": script,
            "ignore": ignore,
            "Module": Module,
            "ModuleList": ModuleList,
            "collect_all": collect_all,
            "wait_all": ray.get,
        },
        "Ray, as the forkwait spec's examples see it",
    )
    return Adapter(
        name="ray",
        version=ray.__version__,
        fw=fw,
        # not "async" (its examples share locks and events with tasks, which cannot be
        # pickled to a worker process) nor "dynamic" (recursive waits start a worker
        # process per level, far slower than an example's deadline allows)
        profiles=frozenset({"core"}),
        expected_failures=load_entries(XFAILS_FILE),
        skips=load_entries(SKIPS_FILE, "skips"),
        warning_filters=WARNING_FILTERS,
    )
