"""A latitude variant: the reference adapter, taking one latitude of the text the other way.

Each variant module declares ``LATITUDE``, a :class:`Latitude` (the sentence that
grants it, where, and the SHOULDs it may therefore fail), and ``adapter()``, built
with :func:`variant`. Patches to the reference happen inside ``adapter()``, which
runs in the suite's executor process alone, never at import: the runner imports
the module to read ``LATITUDE``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter


@dataclass(frozen=True)
class Latitude:
    """What a variant takes, and what it may fail for it."""

    #: the requirement (or page) whose text grants the latitude
    where: str
    #: the sentence that grants it, quoted
    granted: str
    #: SHOULD requirement -> why taking the latitude fails it (nothing else may fail)
    may_fail: Mapping[str, str] = field(default_factory=dict)
    #: run the examples of :explore: requirements under the controlled schedules too: for a
    #: variant whose change a controlled run goes through (the explorer, fw.ignore's helpers)
    schedules: bool = False
    #: the words of example source its change can reach (``add_done_callback``): it runs on
    #: the requirements whose examples use one of them; none, on the whole spec
    reaches: tuple[str, ...] = ()
    #: the profiles it claims, when fewer than the reference's: only a variant whose change
    #: no example of another profile can reach (``fw.trace``, ``fw.tensor`` are trace's)
    profiles: frozenset[str] | None = None
    #: why its runs sleep out deadlines (examples that hang): it starts first
    hangs: str = ""
    #: a program (using ``fw``, and ``explorer``) that prints something else on the variant
    #: than on the reference: the proof that it takes the latitude (a variant that fails
    #: the SHOULDs it names needs none)
    shows: str = ""


def variant(name: str, profiles: Iterable[str] | None = None, **replacements: Any) -> Adapter:
    """The reference adapter renamed, ``fw.<key>`` replaced by each value, its explorer kept."""
    base = reference_adapter()
    for key, value in replacements.items():
        if not hasattr(base.fw, key):
            raise ValueError(f"fw has no {key!r} to replace")
        setattr(base.fw, key, value)
    return Adapter(
        name=f"latitude-{name}",
        version="0",
        fw=base.fw,
        profiles=base.profiles if profiles is None else frozenset(profiles),
        explorer=base.explorer,
    )
