"""repr() of a list tensor pads its entries on the left to the widest, as PyTorch's does."""

from __future__ import annotations

import importlib
from typing import Any

from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="TRACE-TENSOR-1",
    granted="An implementation MAY pad the entries of a list on the left with spaces, to the "
    "width of the widest entry.",
    profiles=frozenset({"trace"}),
    shows="""
print(fw.tensor([0, -7]))
""",
)


def padded(data: Any) -> str:
    """``_format`` of the reference, with a list's entries right-aligned (``[ 0, -7]``)."""
    if isinstance(data, list):
        entries = [padded(item) for item in data]
        width = max((len(entry) for entry in entries), default=0)
        return "[" + ", ".join(entry.rjust(width) for entry in entries) + "]"
    return repr(data)


def adapter() -> Adapter:
    # the module, not the function reference_impl.tracing.tensor names
    tensors = importlib.import_module("reference_impl.tracing.tensor")
    setattr(tensors, "_format", padded)  # noqa: B010 - Tensor.__repr__ formats through it
    return variant("tensor-repr-padded", profiles=LATITUDE.profiles)
