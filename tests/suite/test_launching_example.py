"""An example that launches a child interpreter can be read when it fails: the child's
stderr is in its output, and every line of the example is shown, none cut."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.paths import REPO, checkout_on_path
from tests.suite.adapters.launch_fails import REFUSAL

ROOT = REPO
#: the lines of LIFECYCLE-EXIT-1 that launch the program and print what it said
LAUNCH_LINES = (
    "done = subprocess.run(",
    "[sys.executable, path, names.hex()], capture_output=True, text=True, timeout=20",
    "print(sorted(done.stdout.splitlines()), done.returncode)",
    "if done.returncode != 0:",
    "print(done.stderr)",
)


def failure_of_lifecycle_exit(adapter: str) -> str:
    """What the command prints when ``adapter`` runs LIFECYCLE-EXIT-1 alone."""
    env = checkout_on_path()
    env.pop("FORKWAIT_IMPL", None)
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--impl", adapter, "-k", "LIFECYCLE-EXIT-1",
         "-p", "no:hypothesispytest"],
        capture_output=True, text=True, timeout=120, check=False, env=env, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "adapter",
    ["tests.suite.adapters.launch_fails:adapter", "tests.mutants.abandons_tasks_at_exit:adapter"],
)
def test_a_failing_launch_shows_every_line_that_launched_it(adapter: str) -> None:
    output = failure_of_lifecycle_exit(adapter)
    assert "more lines]" not in output
    source = [line.partition(" | ")[2].strip() for line in output.splitlines() if " | " in line]
    for line in LAUNCH_LINES:
        assert any(shown.startswith(line) for shown in source), output


def test_a_child_that_fails_shows_its_stderr_in_the_failure() -> None:
    output = failure_of_lifecycle_exit("tests.suite.adapters.launch_fails:adapter")
    got = output.partition("Got:")[2]
    assert "[] 1" in got, output
    assert f"RuntimeError: {REFUSAL}" in got, output
    assert "Traceback (most recent call last):" in got
