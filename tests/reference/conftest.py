"""Fixtures for the reference implementation's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import reference_impl as fw


@pytest.fixture
def pool_size() -> Iterator[None]:
    """Let a test resize the worker pool; the size is restored afterwards."""
    before = fw.get_num_threads()
    yield
    fw.set_num_threads(before)
