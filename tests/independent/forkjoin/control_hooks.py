"""Where fork and wait hand over to a controlled schedule, inside a scheduled call.

A top-level scripted call run under a schedule sets its controller here, in the
context its tasks' contexts are copied from; fork and wait in those tasks find
it. Code outside such a call sees None and uses the pool.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .future import Future


class Controller(Protocol):
    """What a controlled schedule offers fork and wait."""

    def owns_this_thread(self) -> bool: ...

    def start(self, body: Callable[[], None], context: contextvars.Context) -> None: ...

    def block_on(self, fut: Future[Any]) -> None: ...

    def switch_point(self) -> None: ...


active: contextvars.ContextVar[Controller | None] = contextvars.ContextVar(
    "forkjoin_controller", default=None
)
