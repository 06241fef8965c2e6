"""``tensor``: a tiny immutable value type whose operations a trace can record.

Numbers or rectangular nested lists of numbers, with elementwise ``+ - * /``,
negation, comparisons and ``sum()``. Enough to write portable trace examples
(``torch.tensor`` plays this part on PyTorch) while staying pure Python.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

from reference_impl.tracing.scope import Traced, active_scope

Data = Any  # a number, or a list of Data


class TracerWarning(UserWarning):
    """A trace met Python control flow on a tensor: only the branch taken is recorded."""


def _check(data: Any, where: str = "tensor()") -> Data:
    if isinstance(data, bool | int | float):
        return data
    if isinstance(data, list | tuple):
        items = [_check(item, where) for item in data]
        shapes = {_shape(item) for item in items}
        if len(shapes) > 1:
            raise ValueError(f"{where}: nested lists must be rectangular, got {data!r}")
        return items
    raise TypeError(
        f"{where} takes a number or nested lists of numbers, got {type(data).__name__}: {data!r}"
    )


def _shape(data: Data) -> tuple[int, ...]:
    if isinstance(data, list):
        return (len(data), *(_shape(data[0]) if data else ()))
    return ()


def _map2(op: Callable[[Any, Any], Any], a: Data, b: Data) -> Data:
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise ValueError(f"shapes do not match: {_shape(a)} and {_shape(b)}")
        return [_map2(op, x, y) for x, y in zip(a, b, strict=True)]
    if isinstance(a, list):
        return [_map2(op, x, b) for x in a]
    if isinstance(b, list):
        return [_map2(op, a, y) for y in b]
    return op(a, b)


def _map1(op: Callable[[Any], Any], a: Data) -> Data:
    return [_map1(op, x) for x in a] if isinstance(a, list) else op(a)


def _total(a: Data) -> Data:
    return sum(_total(x) for x in a) if isinstance(a, list) else a


def _binary(op: Callable[[Any, Any], Any]) -> Callable[[Data, Data], Data]:
    return lambda a, b: _map2(op, a, b)


#: The interpreter's operations on raw data, by the node kind a trace records.
OPS: dict[str, Callable[..., Data]] = {
    "aten::add": _binary(operator.add),
    "aten::sub": _binary(operator.sub),
    "aten::mul": _binary(operator.mul),
    "aten::div": _binary(operator.truediv),
    "aten::lt": _binary(operator.lt),
    "aten::le": _binary(operator.le),
    "aten::gt": _binary(operator.gt),
    "aten::ge": _binary(operator.ge),
    "aten::eq": _binary(operator.eq),
    "aten::ne": _binary(operator.ne),
    "aten::neg": lambda a: _map1(operator.neg, a),
    "aten::sum": _total,
}


def _raw(operand: object) -> Data:
    if isinstance(operand, Tensor):
        return operand._data
    if isinstance(operand, bool | int | float):
        return operand
    raise TypeError(f"unsupported operand for a tensor: {type(operand).__name__}")


def _apply(kind: str, *operands: object) -> Tensor:
    result = Tensor._wrap(OPS[kind](*(_raw(o) for o in operands)))
    scope = active_scope()
    if scope is not None:
        scope.record(kind, list(operands), result, "Tensor")
    return result


class Tensor(Traced):
    """An immutable number or nested list of numbers; see :func:`tensor`."""

    __slots__ = ("__weakref__", "_data")

    def __init__(self, data: Any) -> None:
        self._data: Data = _check(data)

    @classmethod
    def _wrap(cls, data: Data) -> Tensor:
        tensor = cls.__new__(cls)
        tensor._data = data
        return tensor

    def _trace_constant(self) -> tuple[object, str]:
        return self._data, "Tensor"

    def tolist(self) -> Data:
        """The data as plain Python numbers and lists (a copy)."""
        return _map1(lambda x: x, self._data)

    def item(self) -> bool | int | float:
        data = self._data
        while isinstance(data, list) and len(data) == 1:
            data = data[0]
        if isinstance(data, list):
            raise ValueError(f"item() needs a tensor of one element, shape is {self.shape}")
        return data  # type: ignore[no-any-return]

    @property
    def shape(self) -> tuple[int, ...]:
        return _shape(self._data)

    def sum(self) -> Tensor:
        return _apply("aten::sum", self)

    def __add__(self, other: object) -> Tensor:
        return _apply("aten::add", self, other)

    def __radd__(self, other: object) -> Tensor:
        return _apply("aten::add", other, self)

    def __sub__(self, other: object) -> Tensor:
        return _apply("aten::sub", self, other)

    def __rsub__(self, other: object) -> Tensor:
        return _apply("aten::sub", other, self)

    def __mul__(self, other: object) -> Tensor:
        return _apply("aten::mul", self, other)

    def __rmul__(self, other: object) -> Tensor:
        return _apply("aten::mul", other, self)

    def __truediv__(self, other: object) -> Tensor:
        return _apply("aten::div", self, other)

    def __rtruediv__(self, other: object) -> Tensor:
        return _apply("aten::div", other, self)

    def __neg__(self) -> Tensor:
        return _apply("aten::neg", self)

    def __lt__(self, other: object) -> Tensor:
        return _apply("aten::lt", self, other)

    def __le__(self, other: object) -> Tensor:
        return _apply("aten::le", self, other)

    def __gt__(self, other: object) -> Tensor:
        return _apply("aten::gt", self, other)

    def __ge__(self, other: object) -> Tensor:
        return _apply("aten::ge", self, other)

    def __eq__(self, other: object) -> Tensor:  # type: ignore[override]
        return _apply("aten::eq", self, other)

    def __ne__(self, other: object) -> Tensor:  # type: ignore[override]
        return _apply("aten::ne", self, other)

    __hash__ = object.__hash__  # identity, as torch tensors: the tracer depends on it

    def __bool__(self) -> bool:
        if active_scope() is not None:
            warnings.warn(
                "a tensor was converted to a Python bool during tracing: the trace records "
                "only the branch taken",
                TracerWarning,
                stacklevel=2,
            )
        return bool(self.item())

    def __repr__(self) -> str:
        return f"tensor({_format(self._data)})"


def _format(data: Data) -> str:
    if isinstance(data, list):
        return "[" + ", ".join(_format(x) for x in data) + "]"
    if isinstance(data, float):
        return f"{data:.4f}"
    return repr(data)


def tensor(data: Any) -> Tensor:
    """A traceable value from a number or nested lists of numbers (like ``torch.tensor``)."""
    return Tensor(data)
