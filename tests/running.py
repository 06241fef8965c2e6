"""Run the conformance plugin in a subprocess on small spec documents written by a test."""

from __future__ import annotations

import shutil

import pytest

from tests.paths import FIXTURES


def run_spec(pytester: pytest.Pytester, *args: str, fixture: str | None = None) -> pytest.RunResult:
    """Run the plugin in a subprocess on the spec documents in ``pytester.path``.

    ``fixture`` (a file of tests/suite/fixtures) is copied there first.
    """
    if fixture is not None:
        shutil.copy(FIXTURES / fixture, pytester.path / fixture)
    return pytester.runpytest_subprocess(
        "-p", "conformance.run.plugin", "-p", "no:doctest", "-p", "no:cacheprovider",
        "--spec-root", str(pytester.path), *args,
    )  # fmt: skip
