"""A doctest that ends its process cannot end the documented CI command with status 0.

Under ``python -m pytest -p conformance.sphinx_doctest`` (``-n 0``) the tests run in
the pytest process: ``os._exit(0)`` there ends the run with status 0 after a lone
``.``, the later tests never run. ``python -m conformance.sphinx_doctest``
(sphinx_doctest/guard.py) runs that pytest as a child and knows whether its session
reached its end.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CONF = 'extensions = ["sphinx.ext.doctest"]\n'
PAGE = """\
Index
=====

.. testcode::

   print(1)

.. testoutput::

   1

.. testcode::

   {ending}

.. testcode::

   print("ran")

.. testoutput::

   ran
"""
GUARDED = [sys.executable, "-m", "conformance.sphinx_doctest", "-p", "no:cacheprovider"]


def _project(tmp_path: Path, ending: str) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    (docs / "index.rst").write_text(PAGE.format(ending=ending))
    return docs


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GUARDED, *args], capture_output=True, text=True, timeout=300, check=False,
        cwd=tmp_path,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("ending", "how"),
    [
        ("import os; os._exit(0)", "with status 0"),
        ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", "killed by SIGKILL"),
    ],
    ids=["os._exit(0)", "SIGKILL"],
)
def test_a_test_that_ends_the_process_fails_the_guarded_run_naming_it(
    tmp_path: Path, ending: str, how: str
) -> None:
    _project(tmp_path, ending)
    done = _run(tmp_path, "docs")
    assert done.returncode != 0, done.stdout + done.stderr
    assert (
        f"the test process ended {how} while docs/index.rst::testcode:line12 was running"
        in done.stderr
    )
    assert "tests after it did not run" in done.stderr
    # what the unguarded in-process command gives: the false green this guards against
    bare = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conformance.sphinx_doctest", "-p",
         "no:cacheprovider", "docs"],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    if how == "with status 0":
        assert bare.returncode == 0


def test_with_workers_the_tests_after_it_run_and_the_one_that_ended_fails(
    tmp_path: Path,
) -> None:
    _project(tmp_path, "import os; os._exit(0)")
    done = _run(tmp_path, "docs", "-n", "1")
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "FAILED docs/index.rst::testcode:line12 - worker 'gw0' crashed" in done.stdout
    assert "1 failed, 2 passed" in done.stdout
    assert "the test process ended" not in done.stderr


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (("docs",), pytest.ExitCode.OK),
        (("docs", "-k", "nothing-matches"), pytest.ExitCode.NO_TESTS_COLLECTED),
        (("docs", "--no-such-option"), pytest.ExitCode.USAGE_ERROR),
    ],
)
def test_a_run_that_reaches_its_end_keeps_pytest_s_status(
    tmp_path: Path, args: tuple[str, ...], status: int
) -> None:
    _project(tmp_path, "pass")
    done = _run(tmp_path, *args)
    assert done.returncode == status, done.stdout + done.stderr
    assert "the test process ended" not in done.stderr
