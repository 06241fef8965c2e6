"""A cached spec is fresh by content: a file replaced by an older one is read again.

Sphinx's environment (cached between runs) trusts modification times: a document
replaced by a version with an *older* time and the same size (``cp -p``, ``tar x``,
``rsync -a``) would run its stale, cached copy, and a failing example would pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

PAGE = (
    "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
    "   It MUST print 1.\n\n{body}\n"
)
EXAMPLE = ".. testcode::\n\n   print({n})\n\n.. testoutput::\n\n   1\n"
#: a day before any file of the run: what ``cp -p`` of an old copy gives
OLD = 1_000_000_000


def _run(spec: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--spec-root", str(spec), "-q"],
        capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
    )  # fmt: skip


def _replace_with_older(path: Path, text: str) -> None:
    """What ``cp -p`` of an older copy does: new content, same size, an older time."""
    assert len(text) == len(path.read_text())
    path.write_text(text)
    os.utime(path, (OLD, OLD))


@pytest.mark.parametrize("where", ["document", "included file"])
def test_a_file_replaced_by_an_older_one_is_not_run_from_the_cache(
    tmp_path: Path, where: str
) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    if where == "document":
        changed = spec / "one.rst"
        changed.write_text(PAGE.format(body=EXAMPLE.format(n=1)))
    else:
        (spec / "one.rst").write_text(PAGE.format(body=".. include:: part.txt"))
        changed = spec / "part.txt"
        changed.write_text(EXAMPLE.format(n=1))
    cache = tmp_path / "cache"
    first = _run(spec, cache)
    assert first.returncode == 0, first.stdout + first.stderr
    _replace_with_older(changed, changed.read_text().replace("print(1)", "print(2)"))
    second = _run(spec, cache)
    assert second.returncode == pytest.ExitCode.TESTS_FAILED, second.stdout + second.stderr
    assert "output line 1: got '2', expected '1'" in second.stdout
