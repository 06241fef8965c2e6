"""Build a mutant: the reference adapter with some ``fw`` names replaced."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter


def mutant(name: str, profiles: Iterable[str] | None = None, **replacements: Any) -> Adapter:
    """The reference adapter, renamed, with ``fw.<key>`` replaced by each value.

    ``profiles`` narrows the claimed profiles (default: the reference's).
    """
    base = reference_adapter()
    for key, value in replacements.items():
        setattr(base.fw, key, value)
    claimed = base.profiles if profiles is None else frozenset(profiles)
    return Adapter(name=f"mutant-{name}", version="0", fw=base.fw, profiles=claimed)


class AnyFuture(type):
    """Metaclass of a mutant's ``fw.Future`` subclass: every reference future is an instance.

    A mutant that changes what ``fw.Future()`` makes keeps forked futures
    ``fw.Future`` instances, as on the reference; ``type(f) is`` tells them apart.
    """

    def __instancecheck__(cls, instance: Any) -> bool:
        from reference_impl import Future  # noqa: PLC0415

        return isinstance(instance, Future)
