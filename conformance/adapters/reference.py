"""The adapter for ``reference_impl``, the implementation embedded in this project."""

from __future__ import annotations

from types import SimpleNamespace

from conformance.adapter import Adapter


def adapter() -> Adapter:
    """Build the reference adapter (imported only when chosen)."""
    import reference_impl  # noqa: PLC0415 - deferred until this implementation is chosen

    fw = SimpleNamespace(
        fork=reference_impl.fork,
        wait=reference_impl.wait,
        Future=reference_impl.Future,
        Module=reference_impl.Module,
        script=reference_impl.script,
        ignore=reference_impl.ignore,
        collect_all=reference_impl.collect_all,
        wait_all=reference_impl.wait_all,
    )
    return Adapter(
        name="reference",
        version=reference_impl.__version__,
        fw=fw,
        # trace arrives with the graph IR (its own issue); until then it is not claimed
        profiles=frozenset({"core", "async", "dynamic"}),
    )
