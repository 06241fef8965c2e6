"""Refusing what the spec does not state: the errors, and the two ways of refusing.

An operation Python reaches through a type slot (``==``, ``hash``, ``bool``,
``repr``, iteration, arithmetic) is refused by a method that raises
:class:`NotStated`, a ``TypeError``: an ``AttributeError`` there would make
Python fall back to its default (``==`` would compare identities). A named
attribute (``fut.value``, ``t.tolist``) is refused by a descriptor that raises
:class:`NotStatedAttribute`, an ``AttributeError``, so that ``getattr(obj,
name, None)`` reads it as absent, which is what an implementation that lacks it
gives.

Both let the reference itself through: a call made from ``reference_impl`` (or
from :mod:`logging`, formatting the reference's messages) gets the base
class's own behaviour, since the objects are the reference's, reclassed, and
its internals may use what the examples must not.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

C = TypeVar("C")

#: modules whose calls are the implementation's own, not an example's
_INTERNAL = ("reference_impl", "logging")


class NotStated(TypeError):
    """An operation the spec does not state for this object, used by an example."""


class NotStatedAttribute(AttributeError):
    """An attribute the spec does not state for this object, read by an example."""


def internal_caller(depth: int = 2) -> bool:
    """Whether the code ``depth`` frames up (the caller of the caller) is the reference's."""
    name = sys._getframe(depth).f_globals.get("__name__", "")
    return isinstance(name, str) and name.startswith(_INTERNAL)


def _message(owner: str, name: str, stated: str) -> str:
    return f"not stated by the spec: {owner}.{name} ({stated})"


def refused_operation(owner: str, name: str, stated: str, base: type) -> Callable[..., Any]:
    """A method for the slot ``name`` that raises :class:`NotStated` for an example's call.

    ``owner`` names the object in the message; empty, the class of the object refusing.
    """
    fallback = getattr(base, name, None)

    def operation(self: Any, *args: Any) -> Any:
        if internal_caller():
            if fallback is not None:
                return fallback(self, *args)
            if name == "__bool__":  # what Python gives an object without one
                return True
        raise NotStated(_message(owner or type(self).__name__, name, stated))

    operation.__name__ = name
    return operation


class RefusedAttribute:
    """A class attribute that raises :class:`NotStatedAttribute` when an example reads it."""

    def __init__(self, owner: str, stated: str, base: type) -> None:
        self.owner, self.stated, self.base = owner, stated, base
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        if internal_caller():
            found = getattr(self.base, self.name)
            return found.__get__(obj, objtype) if hasattr(found, "__get__") else found
        raise NotStatedAttribute(_message(self.owner, self.name, self.stated))


#: the slots an object answers by default, or a container by its nature, that an example
#: could lean on without noticing: refused unless a sentence states them
OPAQUE_SLOTS = (
    "__eq__", "__ne__", "__hash__", "__bool__", "__repr__", "__iter__", "__len__",
    "__contains__", "__getitem__",
)  # fmt: skip


def refusing(
    owner: str,
    stated: str,
    slots: Iterable[str] = OPAQUE_SLOTS,
    attributes: Iterable[str] = (),
) -> Callable[[type[C]], type[C]]:
    """A class decorator: the class refuses each of ``slots`` and ``attributes``.

    The reference's own calls get what the class's first base gives.
    """

    def decorate(cls: type[C]) -> type[C]:
        base = cls.__mro__[1]
        for name in slots:
            setattr(cls, name, refused_operation(owner, name, stated, base))
        for name in attributes:
            refusal = RefusedAttribute(owner or cls.__name__, stated, base)
            refusal.__set_name__(cls, name)
            setattr(cls, name, refusal)
        return cls

    return decorate


@refusing("", "nothing states it of this object")
class Opaque:
    """A wrapper that offers nothing but what its subclass defines: no repr, ==, hash, len."""

    __slots__ = ()
