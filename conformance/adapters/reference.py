"""The adapter for ``reference_impl``, the implementation embedded in this project."""

from __future__ import annotations

from types import ModuleType

from conformance.adapter import Adapter, Explorer


def adapter() -> Adapter:
    """Build the reference adapter (imported only when chosen)."""
    import reference_impl  # noqa: PLC0415 - deferred until this implementation is chosen
    from reference_impl import default_schedules, use_schedule  # noqa: PLC0415

    # A module, not a namespace object: compilers such as TorchScript resolve
    # ``fw.fork`` inside scripted code only through module attributes.
    fw = ModuleType("fw", "forkwait reference implementation, as examples see it")
    for name in (
        "fork",
        "wait",
        "Future",
        "Module",
        "ModuleList",
        "script",
        "ignore",
        "collect_all",
        "wait_all",
        "trace",
        "tensor",
        "graph_nodes",
    ):
        setattr(fw, name, getattr(reference_impl, name))
    return Adapter(
        name="reference",
        version=reference_impl.__version__,
        fw=fw,
        profiles=frozenset({"core", "async", "dynamic", "trace", "futures"}),
        explorer=Explorer(schedules=default_schedules, use=use_schedule),
    )
