"""trace runs the function twice more to check it (torch's check_trace), and a traced
function runs its recorded forks one after another, not concurrently."""

from __future__ import annotations

import importlib
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._future import run_now
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="TRACE-API-1, TRACE-RERUN-1",
    granted="How often trace runs func is not specified (torch.jit.trace runs it three times "
    "unless told check_trace=False) (TRACE-API-1); Implementations SHOULD run the recorded "
    "forks concurrently ... that part is not a requirement (TRACE-RERUN-1)",
    profiles=frozenset({"trace"}),
    shows="""
import threading

calls, threads = [], set()

def body(x):
    threads.add(threading.get_ident())
    return x * 2

def run(x):
    calls.append(1)
    return fw.wait(fw.fork(body, x))

traced = fw.trace(run, fw.tensor(1))
threads.clear()
traced(fw.tensor(2))
print(len(calls), threads == {threading.get_ident()})
""",
)


def trace(func: Any, example_inputs: Any, /) -> Any:
    """The reference's trace, then the function run twice more, as torch checks a trace."""
    traced = ref.trace(func, example_inputs)
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    for _ in range(2):
        func(*inputs)
    return traced


def fork_in_order(func: Any, *args: Any) -> Any:
    """A recorded fork, replayed at once on the calling thread."""
    return run_now(func, args, {})


def adapter() -> Adapter:
    # the module, not the function reference_impl.tracing.trace names: run_graph forks through it
    tracing = importlib.import_module("reference_impl.tracing.trace")
    setattr(tracing, "fork", fork_in_order)  # noqa: B010 - a module mypy cannot see by name
    return variant("trace-checks-and-replays-in-order", profiles=LATITUDE.profiles, trace=trace)
