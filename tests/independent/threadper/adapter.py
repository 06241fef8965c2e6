"""The conformance suite's view of this implementation (``--impl
tests.independent.threadper:adapter``): every profile, and an explorer."""

from __future__ import annotations

import sys

from conformance.adapter import Adapter, Explorer, fw_module

from .schedules import schedule_names, use_schedule

PROFILES = frozenset({"core", "async", "dynamic", "trace", "futures"})


def adapter() -> Adapter:
    """The adapter: the package's names for every profile, and its schedules."""
    package = sys.modules[__package__]
    return Adapter(
        name="threadper",
        version="0.1",
        fw=fw_module(package, PROFILES, "threadper: a thread per task"),
        profiles=PROFILES,
        explorer=Explorer(schedules=schedule_names, use=use_schedule),
    )
