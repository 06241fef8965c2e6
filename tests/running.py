"""Run the conformance plugin in a subprocess on small spec documents written by a test."""

from __future__ import annotations

import shutil

import pytest

from tests.paths import FIXTURES, checkout_on_path


def run_spec(pytester: pytest.Pytester, *args: str, fixture: str | None = None) -> pytest.RunResult:
    """Run the plugin in a subprocess on the spec documents in ``pytester.path``.

    ``fixture`` (a file of tests/suite/fixtures) is copied there first. The checkout is
    on ``PYTHONPATH``, so that ``--impl tests.suite.adapters.NAME:adapter`` imports.
    """
    if fixture is not None:
        shutil.copy(FIXTURES / fixture, pytester.path / fixture)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", checkout_on_path()["PYTHONPATH"])
        return pytester.runpytest_subprocess(
            "-p", "conformance.run.plugin", "-p", "no:doctest", "-p", "no:cacheprovider",
            "--spec-root", str(pytester.path), *args,
        )  # fmt: skip
