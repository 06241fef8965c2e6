"""The hook the core owns, by which the optional extensions (tracing, schedules) plug in.

The core never imports an extension. An extension plugs in at two places:

* A thread's state (``_thread_state.ThreadState``) has two slots, ``scope``
  (the trace being recorded) and ``run`` (the controlled run this thread's
  scripted code belongs to). While one is set, ``fork`` and ``wait`` hand over
  to it: it is their :class:`Interceptor`. A trace comes first, so a scheduled
  call can be traced.
* ``script`` asks :data:`scheduler` which schedule a top-level scripted call
  uses, and lets it run the call; ``reference_impl.schedules`` installs one
  when it is imported (``reference_impl`` imports it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from reference_impl._future import Future

T = TypeVar("T")


class Interceptor(Protocol):
    """What ``fork`` and ``wait`` hand over to while it is set on the calling thread."""

    def fork(
        self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Future[Any]:
        """``fork(func, *args, **kwargs)`` as this interceptor runs it."""
        ...

    def wait(self, future: Future[Any]) -> Any:
        """``wait(future)`` as this interceptor runs it: the value, or raise the exception."""
        ...


class RunInterceptor(Interceptor, Protocol):
    """A controlled run: also the wait point of ``wait_all``, which waits without retrieving."""

    def wait_until_done(self, future: Future[Any]) -> None:
        """Return once ``future`` is done, leaving its outcome in it."""
        ...


class Scheduler(Protocol):
    """How ``script`` runs a top-level scripted call under a controlled schedule."""

    def check(self, spec: str) -> None:
        """Raise ValueError, naming what is wrong, unless ``spec`` names a schedule."""
        ...

    def selected(self, explicit: str | None) -> str | None:
        """The schedule a top-level scripted call uses (``explicit`` first); None: the pool."""
        ...

    def run(self, spec: str, call: Callable[[], T]) -> T:
        """Run ``call`` (a scripted call) under schedule ``spec``; its result."""
        ...


#: The scheduler ``script`` uses; None until ``reference_impl.schedules`` is imported.
scheduler: Scheduler | None = None


def install_scheduler(new: Scheduler) -> None:
    """Plug the controlled schedules into ``script``."""
    global scheduler
    scheduler = new


def installed_scheduler() -> Scheduler:
    """The installed scheduler, or a clear error when there is none."""
    if scheduler is None:
        raise RuntimeError(
            "controlled schedules are not loaded: import reference_impl.schedules "
            "(importing reference_impl does)"
        )
    return scheduler
