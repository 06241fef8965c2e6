"""``tensor``: integers or one-dimensional lists of them, with ``+``, ``-`` and ``*``.

Every operation tells the trace being recorded in the current context, if
any (:mod:`.recording`), so that traced code is recorded by running it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from . import recording

Data = int | tuple[int, ...]
_Binary = Callable[[int, int], int]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Tensor:
    """An ``int`` (a scalar) or a tuple of ints (one dimension)."""

    __slots__ = ("_data",)

    def __init__(self, data: Data) -> None:
        self._data = data

    @property
    def data(self) -> Data:
        return self._data

    def __repr__(self) -> str:
        if isinstance(self._data, tuple):
            return "tensor([" + ", ".join(str(x) for x in self._data) + "])"
        return f"tensor({self._data})"

    def _apply(self, kind: str, func: _Binary, other: object, mirrored: bool) -> Tensor | None:
        if isinstance(other, Tensor):
            other_data: Data = other._data
        elif _is_int(other):
            other_data = other  # type: ignore[assignment]
        else:
            return None
        left, right = (other_data, self._data) if mirrored else (self._data, other_data)
        result = Tensor(_elementwise(func, left, right))
        recorder = recording.ACTIVE.get()
        if recorder is not None:
            operands = (other, self) if mirrored else (self, other)
            recorder.operation(kind, operands, result)
        return result

    def __add__(self, other: Any) -> Tensor:
        result = self._apply("add", operator.add, other, mirrored=False)
        return NotImplemented if result is None else result

    def __radd__(self, other: Any) -> Tensor:
        result = self._apply("add", operator.add, other, mirrored=True)
        return NotImplemented if result is None else result

    def __sub__(self, other: Any) -> Tensor:
        result = self._apply("sub", operator.sub, other, mirrored=False)
        return NotImplemented if result is None else result

    def __rsub__(self, other: Any) -> Tensor:
        result = self._apply("sub", operator.sub, other, mirrored=True)
        return NotImplemented if result is None else result

    def __mul__(self, other: Any) -> Tensor:
        result = self._apply("mul", operator.mul, other, mirrored=False)
        return NotImplemented if result is None else result

    def __rmul__(self, other: Any) -> Tensor:
        result = self._apply("mul", operator.mul, other, mirrored=True)
        return NotImplemented if result is None else result


def _elementwise(func: _Binary, left: Data, right: Data) -> Data:
    if isinstance(left, tuple) and isinstance(right, tuple):
        if len(left) != len(right):
            raise ValueError(f"tensors of shapes ({len(left)},) and ({len(right)},) differ")
        return tuple(func(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, tuple):
        return tuple(func(a, right) for a in left)  # type: ignore[arg-type]
    if isinstance(right, tuple):
        return tuple(func(left, b) for b in right)
    return func(left, right)


def tensor(data: int | list[int]) -> Tensor:
    """A tensor from an ``int`` or a list of ``int``."""
    if _is_int(data):
        return Tensor(data)  # type: ignore[arg-type]
    if isinstance(data, list) and all(_is_int(x) for x in data):
        return Tensor(tuple(data))
    raise TypeError(f"tensor() takes an int or a list of int, got {data!r}")
