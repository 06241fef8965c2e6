"""The adapter for ``reference_impl``, the implementation embedded in this project."""

from __future__ import annotations

from conformance.adapter import Adapter, Explorer, fw_module


def adapter() -> Adapter:
    """Build the reference adapter (imported only when chosen)."""
    import reference_impl  # noqa: PLC0415 - deferred until this implementation is chosen
    from reference_impl import default_schedules, use_schedule  # noqa: PLC0415

    profiles = frozenset({"core", "async", "dynamic", "trace", "futures"})
    fw = fw_module(
        reference_impl, profiles, "forkwait reference implementation, as examples see it"
    )
    return Adapter(
        name="reference",
        version=reference_impl.__version__,
        fw=fw,
        profiles=profiles,
        explorer=Explorer(schedules=default_schedules, use=use_schedule),
    )
