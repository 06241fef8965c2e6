"""The reference behind exactly the surface the spec states: a check that leans on more fails.

``fw`` holds only the names profiles.rst lists for the claimed profiles (API-NAMES-1);
each is the reference's, but what it hands back offers only what a sentence states
(tests/latitudes/_objects.py quotes them): futures with the methods of their
profile, tensors with ``+``, ``-``, ``*`` and ``repr()``, scripted, ignored and
traced functions that can be called (and a ``graph``, a ``forward``), graph nodes
with four fields. No ``==``, hash, ``repr``, truth value or iteration where none is
stated: using one raises ``NotStated`` ("not stated by the spec: Tensor.__eq__").

The profiles claimed are the reference's five, or those of
``$FORKWAIT_MINIMAL_PROFILES`` (``core,async``: the surface an engine claiming those
offers). Read when this module is imported, so that a program given ``fw``'s names by
pickle, in a new interpreter, sees the same surface.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter, Explorer, fw_from
from conformance.catalog.vocabulary import PROFILES, profile_names
from tests.latitudes._objects import (
    ForkOnlyFuture,
    Future,
    GraphNode,
    Ignored,
    ModuleList,
    RuntimeFuture,
    ScriptedFunction,
    ScriptedModule,
    Tensor,
    TracedFunction,
    adopt,
    adopt_tensor,
)
from tests.latitudes._stated import NotStated

ENV_PROFILES = "FORKWAIT_MINIMAL_PROFILES"


def claimed_profiles() -> frozenset[str]:
    """The profiles ``$FORKWAIT_MINIMAL_PROFILES`` names (comma-separated), or all five."""
    named = os.environ.get(ENV_PROFILES, "")
    profiles = frozenset(p.strip() for p in named.split(",") if p.strip()) or frozenset(PROFILES)
    unknown = sorted(profiles - set(PROFILES))
    if unknown:
        raise ValueError(f"${ENV_PROFILES}: unknown profiles {unknown} (known: {sorted(PROFILES)})")
    return profiles


CLAIMED = claimed_profiles()
#: profiles.rst: with ``futures``, "everything futures-api.rst lists, on created and forked
#: futures alike"; without it, ``done()`` and ``wait()``
FUTURE: type[ref.Future[Any]] = Future if "futures" in CLAIMED else ForkOnlyFuture
RUNTIME_FUTURE: type[ref.Future[Any]] = RuntimeFuture if "futures" in CLAIMED else ForkOnlyFuture


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """fork.rst: "starts ``func(*args, **kwargs)`` as a task and returns a Future"."""
    return adopt(ref.fork(func, *args, **kwargs), RUNTIME_FUTURE)


def wait(future: Any, /) -> Any:
    """wait.rst: "blocks until the task of ``future`` is done and returns its value"."""
    return ref.wait(future)


def collect_all(futures: list[Any], /) -> Any:
    """FUTURE-COLLECT-ALL-1: "MUST return a future that completes once every given future
    has"; its value, the list of the given futures, holds the very objects given."""
    return adopt(ref.collect_all(futures), RUNTIME_FUTURE)


def wait_all(futures: list[Any], /) -> list[Any]:
    """FUTURE-WAIT-ALL-1: "MUST return the values in the order of ``futures``"."""
    return ref.wait_all(futures)


def script(obj: Any, /) -> ScriptedFunction:
    """script.rst: "compiles ``fn`` (a function, or a module) and returns the compiled
    version"; for a module, SCRIPT-MODULE-1's object with ``forward``."""
    compiled = ref.script(obj)
    if isinstance(obj, ref.Module):
        return ScriptedModule(compiled)
    return ScriptedFunction(compiled)


def ignore(func: Callable[..., Any], /) -> Ignored:
    """SCRIPT-IGNORE-1: "``fw.ignore(f)`` MUST return a callable"."""
    return Ignored(ref.ignore(func))


def tensor(data: Any, /) -> Tensor:
    """TRACE-TENSOR-1: "MUST make a tensor from a Python ``int`` (a scalar) or a list of
    ``int`` (one dimension)"; other element types and shapes are not specified."""
    if not _ints(data) and not (isinstance(data, list) and all(_ints(x) for x in data)):
        raise NotStated(
            f"not stated by the spec: tensor({type(data).__name__}) (TRACE-TENSOR-1 states "
            "an int or a list of int)"
        )
    return adopt_tensor(ref.tensor(data))


def _ints(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def trace(func: Callable[..., Any], example_inputs: Any, /) -> TracedFunction:
    """TRACE-API-1: "MUST return a traced function"."""
    return TracedFunction(ref.trace(func, example_inputs))


def graph_nodes(traced: TracedFunction, /) -> list[GraphNode]:
    """TRACE-GRAPH-NODES-1: "MUST return, as a list, the nodes of ``traced.graph``"."""
    if not isinstance(traced, TracedFunction):
        raise TypeError(f"graph_nodes() expects what fw.trace returned, got {type(traced)}")
    return [GraphNode(node) for node in ref.graph_nodes(traced._traced)]


#: every name an ``fw`` of some profile holds (profiles.rst, "The fw names per profile")
NAMES: dict[str, object] = {
    "fork": fork,
    "wait": wait,
    "Future": FUTURE,
    "script": script,
    "ignore": ignore,
    "Module": ref.Module,  # modules.rst: "the base class of modules": forward, and a call
    "ModuleList": ModuleList,
    "collect_all": collect_all,
    "wait_all": wait_all,
    "trace": trace,
    "tensor": tensor,
    "graph_nodes": graph_nodes,
}


def adapter() -> Adapter:
    """The reference, as minimal as the text: the profiles of :data:`CLAIMED`."""
    fw = fw_from(
        {name: NAMES[name] for name in profile_names(CLAIMED)},
        "the reference behind the surface the spec states, and nothing more",
    )
    return Adapter(
        name="minimal-surface",
        version=ref.__version__,
        fw=fw,
        profiles=CLAIMED,
        explorer=Explorer(schedules=ref.default_schedules, use=ref.use_schedule),
    )
