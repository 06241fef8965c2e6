"""fork returns its own handle type, which is not an fw.Future."""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant


class Handle:
    def __init__(self, inner: ref.Future[Any]) -> None:
        self.inner = inner

    def done(self) -> bool:
        return self.inner.done()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return Handle(ref.fork(func, *args, **kwargs))


def wait(future: Any) -> Any:
    return ref.wait(future.inner if isinstance(future, Handle) else future)


def unwrap(futures: list[Any]) -> list[Any]:
    return [f.inner if isinstance(f, Handle) else f for f in futures]


def adapter() -> Adapter:
    return mutant(
        "wrong-future-type",
        fork=fork,
        wait=wait,
        collect_all=lambda futures: ref.collect_all(unwrap(futures)),
        wait_all=lambda futures: ref.wait_all(unwrap(futures)),
    )
