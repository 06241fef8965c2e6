"""``collect_all`` and ``wait_all``: many futures as one.

``collect_all`` keeps every future for its caller (a failed one raises when
waited); ``wait_all`` waits for every future, then raises the first failure in
list order, so that which failure it reports never depends on timing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, TypeVar

from . import waiting
from .futures import Future

T = TypeVar("T")


def _checked(futures: Iterable[Future[T]], caller: str) -> list[Future[T]]:
    items = list(futures)
    for index, item in enumerate(items):
        if not isinstance(item, Future):
            raise TypeError(f"{caller}: item {index} is {type(item).__name__}, not a future")
    return items


def collect_all(futures: Iterable[Future[T]]) -> Future[list[Future[T]]]:
    """A future that completes, once every given future is done, with a new list of them."""
    items = _checked(futures, "collect_all")
    combined: Future[list[Future[T]]] = Future()
    remaining = [len(items)]
    lock = threading.Lock()

    def one_done(_: Future[Any]) -> None:
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            combined.set_result(list(items))

    if not items:
        combined.set_result([])
    for item in items:
        item.add_done_callback(one_done)
    return combined


def wait_all(futures: Iterable[Future[T]]) -> list[T]:
    """The values in list order, once all are done; else the first failure in list order."""
    items = _checked(futures, "wait_all")
    for item in items:
        waiting.block_until_done(item)
    return [item.value() for item in items]
