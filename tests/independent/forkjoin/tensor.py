"""The value type traces record: an integer scalar or a one-dimensional list of integers.

Each operation computes at once, then tells the trace being recorded, if any,
so that running code and recording it are one path.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from . import trace_hooks

Data = int | list[int]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Tensor:
    """An integer tensor of rank 0 or 1; ``+``, ``-`` and ``*`` work elementwise."""

    __slots__ = ("data",)

    def __init__(self, data: Data) -> None:
        self.data = data

    def __repr__(self) -> str:
        if isinstance(self.data, list):
            return "tensor([" + ", ".join(str(item) for item in self.data) + "])"
        return f"tensor({self.data})"

    def _operation(
        self, kind: str, other: object, op: Callable[[int, int], int], *, swapped: bool
    ) -> Tensor:
        if isinstance(other, Tensor):
            right: Data = other.data
        elif _is_int(other):
            right = int(other)  # type: ignore[call-overload]
        else:
            raise TypeError(
                f"unsupported operand for tensor {kind}: {type(other).__name__} {other!r}"
            )
        left = self.data
        if swapped:
            left, right = right, left
        result = Tensor(_elementwise(left, right, op))
        recorder = trace_hooks.current.get()
        if recorder is not None:
            recorder.operation(kind, (other, self) if swapped else (self, other), result)
        return result

    def __add__(self, other: object) -> Tensor:
        return self._operation("add", other, operator.add, swapped=False)

    def __radd__(self, other: object) -> Tensor:
        return self._operation("add", other, operator.add, swapped=True)

    def __sub__(self, other: object) -> Tensor:
        return self._operation("sub", other, operator.sub, swapped=False)

    def __rsub__(self, other: object) -> Tensor:
        return self._operation("sub", other, operator.sub, swapped=True)

    def __mul__(self, other: object) -> Tensor:
        return self._operation("mul", other, operator.mul, swapped=False)

    def __rmul__(self, other: object) -> Tensor:
        return self._operation("mul", other, operator.mul, swapped=True)


def _elementwise(left: Data, right: Data, op: Callable[[int, int], int]) -> Data:
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            raise ValueError(f"tensors of different shapes: {len(left)} and {len(right)} entries")
        return [op(a, b) for a, b in zip(left, right, strict=True)]
    if isinstance(left, list):
        return [op(a, right) for a in left]  # type: ignore[arg-type]
    if isinstance(right, list):
        return [op(left, b) for b in right]
    return op(left, right)


def tensor(data: Data) -> Tensor:
    """A tensor from an ``int`` (a scalar) or a list of ``int`` (one dimension)."""
    if _is_int(data):
        return Tensor(int(data))  # type: ignore[arg-type]
    if isinstance(data, list | tuple) and all(_is_int(item) for item in data):
        return Tensor([int(item) for item in data])
    raise TypeError(f"tensor needs an int or a list of ints, got {data!r}")
