"""Build a mutant: the reference adapter with some ``fw`` names replaced."""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter


def mutant(name: str, **replacements: Any) -> Adapter:
    """The reference adapter, renamed, with ``fw.<key>`` replaced by each value."""
    base = reference_adapter()
    for key, value in replacements.items():
        setattr(base.fw, key, value)
    return Adapter(name=f"mutant-{name}", version="0", fw=base.fw, profiles=base.profiles)
