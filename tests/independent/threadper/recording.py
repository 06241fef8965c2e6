"""The hook through which tracing sees what traced code does.

Forks, waits and tensor operations consult :data:`ACTIVE`, the recorder of the
graph the running code belongs to. It is a context variable because a forked
task runs in a copy of its forker's context: a fork's body then records into
the subgraph the fork set in that copy, and code outside any trace sees None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import Context, ContextVar
from typing import Any, Protocol


class Recorder(Protocol):
    """What a graph under construction is told."""

    def operation(self, kind: str, operands: Sequence[object], result: object) -> None:
        """``result = kind(*operands)`` ran; operands are tensors or Python ints."""

    def forked(
        self,
        future: object,
        func: Callable[..., Any],
        args: Sequence[object],
        kwargs: Mapping[str, object],
        context: Context,
    ) -> Callable[[object, BaseException | None], None]:
        """A fork is starting: prepare ``context`` for the body's subgraph and return
        what the task calls with its outcome before it completes its future."""

    def waited(self, future: object, value: object) -> None:
        """A wait on ``future`` gave ``value``."""


ACTIVE: ContextVar[Recorder | None] = ContextVar("threadper_recorder", default=None)
