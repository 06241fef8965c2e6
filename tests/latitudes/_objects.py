"""The objects ``minimal_surface`` hands to examples: each offers what a sentence states.

Futures and tensors are the reference's own objects, reclassed (``__class__``
set to a subclass that refuses what is not stated): the same object, so
identity, the reference's internals and its tracer's bookkeeping (by ``id``)
are untouched. What ``script``, ``ignore`` and ``trace`` return is wrapped
instead (:class:`Opaque`). Each class quotes the sentences it offers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import reference_impl as ref
from tests.latitudes._stated import OPAQUE_SLOTS, NotStated, Opaque, refusing

F = TypeVar("F", bound=ref.Future[Any])
T_co = TypeVar("T_co", covariant=True)

# -- futures ---------------------------------------------------------------------------

#: profiles.rst, "Methods of futures per profile": without ``futures`` a future offers
#: ``done()`` and ``wait()``; ``value()``, ``then``, ``add_done_callback``,
#: ``set_result``, ``set_exception`` and ``fw.Future()`` itself belong to ``futures``
_FUTURES_API = ("value", "then", "add_done_callback", "set_result", "set_exception")
_FORK_ONLY = (
    "profiles.rst: 'These two [done() and wait()] are the whole of what a fork-only runtime "
    "must offer on its futures'"
)


@refusing("Future", _FORK_ONLY, attributes=_FUTURES_API)
class ForkOnlyFuture(ref.Future[T_co]):
    """``fw.Future`` of an adapter without ``futures``: a class, ``done()`` and ``wait()``.

    API-NAMES-1: ``Future`` is a class. FUTURE-ANNOTATIONS-1: ``fw.Future[T]`` is usable
    as a type annotation. profiles.rst: ``core`` calls ``fut.done()`` and ``fut.wait()``
    on a future returned by ``fork``; "only ``futures`` calls ``fw.Future()``".
    """

    __slots__ = ()

    def __init__(self) -> None:
        raise NotStated(
            "not stated by the spec: fw.Future() (profiles.rst: 'only futures calls "
            "fw.Future()', and this adapter does not claim futures)"
        )


@refusing("Future", "futures-api.rst lists done, wait, value, set_result, set_exception, then, "
          "add_done_callback; nothing states ==, hash, repr, bool or iteration")  # fmt: skip
class Future(ref.Future[T_co]):
    """``fw.Future`` with ``futures`` claimed: everything futures-api.rst lists.

    futures-api.rst: ``fut.done()``, ``fut.wait()``, ``fut.value()``,
    ``fut.set_result(value)`` and ``fut.set_exception(error)`` ("complete a future made
    with ``fw.Future()``"), ``fut.then(callback)`` ("a new future"),
    ``fut.add_done_callback(callback)``. FUTURE-CREATE-1: ``fw.Future()``, called
    without arguments, returns a future that is not done.
    """

    __slots__ = ()

    def then(self, callback: Callable[[Any], Any]) -> Future[Any]:
        # FUTURE-THEN-1: "MUST return a new future ... The new future has the same methods"
        return adopt(ref.Future.then(self, callback), RuntimeFuture)


@refusing("Future", "set_result and set_exception 'complete a future made with fw.Future()' "
          "(futures-api.rst); FUTURE-FORKED-METHODS-1 lists wait(), value(), done(), then and "
          "add_done_callback for a future fork returns", slots=(),
          attributes=("set_result", "set_exception"))  # fmt: skip
class RuntimeFuture(Future[T_co]):
    """A future the runtime completes (``fork``, ``then``, ``collect_all``), with ``futures``.

    FUTURE-FORKED-METHODS-1: a future returned by ``fork`` offers ``wait()``,
    ``value()``, ``done()``, ``then`` and ``add_done_callback``; completing one by hand
    "is left open, and portable code does not do it" (futures-api.rst).
    """

    __slots__ = ()


def adopt(future: Any, cls: type[F]) -> F:
    """``future``, a reference future, as an instance of ``cls``: the same object."""
    future.__class__ = cls
    return future  # type: ignore[no-any-return]


# -- tensors ---------------------------------------------------------------------------

_TENSOR = "TRACE-TENSOR-1 states +, - and * (with a tensor of the same shape or an int) and repr()"
_TENSOR_SLOTS = (
    *(name for name in OPAQUE_SLOTS if name != "__repr__"),
    "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__pos__", "__abs__", "__invert__",
    "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__",
    "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__int__", "__float__", "__index__",
    "__round__",
)  # fmt: skip


def _shape(data: object) -> int | None:
    return len(data) if isinstance(data, list) else None


def _operand(tensor: Tensor, other: object, op: str) -> object:
    # TRACE-TENSOR-1: "between two tensors of the same shape and between a tensor and a
    # Python int on either side"
    if isinstance(other, int) and not isinstance(other, bool):
        return other
    if not isinstance(other, ref.Tensor):
        what = type(other).__name__
    elif _shape(other._data) != _shape(tensor._data):
        what = "a tensor of another shape"
    else:
        return other
    raise NotStated(f"not stated by the spec: Tensor {op} {what} ({_TENSOR})")


def as_tensor(value: Any) -> Any:
    """A reference tensor as a :class:`Tensor` (the same object); anything else as it is."""
    if isinstance(value, ref.Tensor):
        adopt_tensor(value)
    return value


def adopt_tensor(tensor: ref.Tensor) -> Tensor:
    tensor.__class__ = Tensor
    return tensor  # type: ignore[return-value]


@refusing("Tensor", _TENSOR, slots=_TENSOR_SLOTS, attributes=("tolist", "item", "shape", "sum"))
class Tensor(ref.Tensor):
    """A tensor offering TRACE-TENSOR-1's operations and nothing else.

    "``+``, ``-`` and ``*`` MUST work on such tensors elementwise, between two tensors of
    the same shape and between a tensor and a Python ``int`` on either side, and give a
    tensor. ``repr()`` of such a tensor, which ``print`` shows, MUST be ``tensor(N)``"
    (``str`` is ``repr``: "which ``print`` shows"). "Other element types, shapes and
    operations are not specified."
    """

    __slots__ = ()

    def __add__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__add__(self, _operand(self, other, "+")))

    def __radd__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__radd__(self, _operand(self, other, "+")))

    def __sub__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__sub__(self, _operand(self, other, "-")))

    def __rsub__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__rsub__(self, _operand(self, other, "-")))

    def __mul__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__mul__(self, _operand(self, other, "*")))

    def __rmul__(self, other: object) -> Tensor:
        return adopt_tensor(ref.Tensor.__rmul__(self, _operand(self, other, "*")))


# -- what script, ignore and trace return ----------------------------------------------


class ScriptedFunction(Opaque):
    """What ``fw.script(fn)`` returns: "the compiled version" (script.rst), called as ``fn``.

    SCRIPT-SAME-RESULT-1: it returns what ``fn`` returns "for any arguments the function
    takes, given by position or by keyword of any name"; FORK-SCRIPTED-1: ``fork``
    accepts it.
    """

    __slots__ = ("_compiled",)

    def __init__(self, compiled: Callable[..., Any]) -> None:
        self._compiled = compiled

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return self._compiled(*args, **kwargs)


class ScriptedModule(ScriptedFunction):
    """What ``fw.script(module)`` returns.

    SCRIPT-MODULE-1: "an object that has a ``forward`` method and can itself be called".
    """

    __slots__ = ()

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:
        return self._compiled(*args, **kwargs)


class Ignored(ScriptedFunction):
    """What ``fw.ignore(f)`` returns. SCRIPT-IGNORE-1: "a callable that scripted code ... can
    call as it would call ``f``"."""

    __slots__ = ()


class Graph(Opaque):
    """``traced.graph``: TRACE-API-1 "an attribute ``graph`` holding the recording", whose
    printed form ``str(traced.graph)`` contains ``fork`` (TRACE-FORK-WAIT-1)."""

    __slots__ = ("_graph",)

    def __init__(self, graph: object) -> None:
        self._graph = graph

    def __str__(self) -> str:
        return str(self._graph)


class TracedFunction(Opaque):
    """What ``fw.trace`` returns. TRACE-API-1: "a callable that takes tensors as ``func``
    does, returns what ``func`` returns for them, and has an attribute ``graph``"."""

    __slots__ = ("_traced",)

    def __init__(self, traced: ref.TracedFunction) -> None:
        self._traced = traced

    def __call__(self, /, *inputs: Any) -> Any:
        result = self._traced(*inputs)
        if isinstance(result, tuple):
            return tuple(as_tensor(item) for item in result)
        return as_tensor(result)

    @property
    def graph(self) -> Graph:
        return Graph(self._traced.graph)


class GraphNode(Opaque):
    """A node of ``fw.graph_nodes``: TRACE-GRAPH-NODES-1 "Each node has four fields":
    ``kind`` (a string), ``inputs`` and ``outputs`` ("tuples of strings"), ``blocks`` ("a
    tuple", a fork's one block "the tuple of its subgraph's nodes in this same form")."""

    __slots__ = ("blocks", "inputs", "kind", "outputs")

    def __init__(self, node: ref.GraphNode) -> None:
        self.kind: str = node.kind
        self.inputs: tuple[str, ...] = tuple(node.inputs)
        self.outputs: tuple[str, ...] = tuple(node.outputs)
        self.blocks = tuple(tuple(GraphNode(n) for n in block) for block in node.blocks)


_MODULE_LIST = (
    "profiles.rst: 'construction from a list, assignment as an attribute of a fw.Module, "
    "and iteration with for in forward'; 'an implementation need not offer' indexing and len()"
)


@refusing("ModuleList", _MODULE_LIST,
          slots=tuple(name for name in OPAQUE_SLOTS if name != "__iter__"),
          attributes=("append",))  # fmt: skip
class ModuleList(ref.ModuleList):
    """``fw.ModuleList``: built from a list of modules, held by a module, iterated."""

    __slots__ = ()
