"""The warning for an unretrieved failure survives a broken exception."""

from __future__ import annotations

import gc
import time
import warnings
from typing import NoReturn

import pytest

import reference_impl as fw
from reference_impl._pool import get_pool


class ReprRaises(ValueError):
    """A task's exception whose ``__repr__`` itself fails, as a broken proxy's may."""

    def __repr__(self) -> str:
        raise RuntimeError("repr is broken")


def fail_badly() -> NoReturn:
    raise ReprRaises("lost")


def collected_warnings(mode: str) -> list[warnings.WarningMessage]:
    """Fork a failing task, complete it without retrieving its error, collect it."""
    run = fw.script(fw.fork) if mode == "script" else fw.fork
    future = run(fail_badly)
    fw.collect_all([future]).wait()  # completes it, retrieving nothing
    deadline = time.monotonic() + 10  # until no queue entry of the pool holds it
    while get_pool().pending() and time.monotonic() < deadline:
        time.sleep(0.001)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del future
        gc.collect()
    return caught


@pytest.mark.parametrize("mode", ["plain", "script"])
def test_an_exception_whose_repr_raises_still_warns_when_unretrieved(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    unraisable: list[object] = []
    monkeypatch.setattr("sys.unraisablehook", unraisable.append)
    caught = collected_warnings(mode)
    unretrieved = [w for w in caught if issubclass(w.category, fw.UnretrievedExceptionWarning)]
    assert len(unretrieved) == 1, [str(w.message) for w in caught]
    assert "ReprRaises" in str(unretrieved[0].message)
    assert "<function fail_badly>" in str(unretrieved[0].message)
    assert unraisable == []  # the guard's __del__ raised nothing
