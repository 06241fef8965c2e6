"""The conformance adapter: the spec's ``fw`` names mapped onto this runtime."""

from __future__ import annotations

from conformance.adapter import Adapter, Explorer, fw_from

from .future import Future
from .runtime import collect_all, fork, wait, wait_all
from .schedule import schedules, use
from .scripted import Module, ModuleList, ignore, script
from .tensor import tensor
from .tracing import graph_nodes, trace

PROFILES = frozenset({"core", "async", "dynamic", "futures", "trace"})


def adapter() -> Adapter:
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
            "trace": trace,
            "tensor": tensor,
            "graph_nodes": graph_nodes,
        },
        "an independent fork/join-pool runtime, as the spec's examples see it",
    )
    return Adapter(
        name="indep-forkjoin",
        version="0.1",
        fw=fw,
        profiles=PROFILES,
        explorer=Explorer(schedules=schedules, use=use),
    )
