"""The collector held off while a document is parsed, and given back as it was."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from conformance.sphinx_doctest.gc_pause import collector_paused


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("collector_enabled")
def test_the_collector_is_off_inside_and_on_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_an_error_inside_still_gives_the_collector_back() -> None:
    with pytest.raises(ValueError, match="bad"), collector_paused():
        raise ValueError("bad")
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_a_collector_someone_else_held_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
