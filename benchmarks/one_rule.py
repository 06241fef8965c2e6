"""The implementer's loop: ``forkwait-conformance -k ONE-RULE`` against the imports it cannot avoid.

A one-rule run (reference implementation, Sphinx's environment cached, as after
any first run) is timed against a bare interpreter importing what any such run
imports - pytest, ``sphinx.application`` and sybil - in the same rounds, taking
turns, and printed as a ratio to it (target: ``TARGET``). Two parts of the run
are timed beside them, as what they add: an executor's imports (the process
every example runs in, started while the harness reads the spec) and the
harness's reading of the unchanged spec (from the snapshot of Sphinx's earlier
read: no Sphinx application is started).

Run: ``python benchmarks/one_rule.py [--rule ID] [--repeats N]`` (from the checkout).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from _timing import interleaved

REPO = Path(__file__).resolve().parent.parent
#: the one-rule run may cost at most this many times the bare imports
TARGET = 2.5
BARE = "bare imports (pytest, sphinx.application, sybil)"
READ_SPEC = """\
from pathlib import Path
from conformance.sphinx_doctest.project import SphinxSource, read_project
from conformance.sphinx_doctest.project import default_cache_root
read_project(Path("docs").resolve(), SphinxSource(Path("conf").resolve()), default_cache_root())
"""


def runner(command: list[str]) -> Callable[[], object]:
    def run() -> object:
        return subprocess.run(command, cwd=REPO, capture_output=True, check=True)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule", default="FORK-CALLS-1")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    python = sys.executable
    one_rule = f"forkwait-conformance -k {args.rule}"
    commands = {
        BARE: [python, "-c", "import pytest, sphinx.application, sybil"],
        one_rule: [python, "-m", "conformance.cli", "--impl", "reference", "-q", "-k", args.rule],
        "an executor's imports": [python, "-c", "import conformance.executor.main"],
        "reading the unchanged spec (snapshot)": [python, "-c", READ_SPEC],
    }
    for command in commands.values():  # warm-up: caches filled, as after any first run
        runner(command)()
    timings = interleaved(args.repeats, {name: runner(c) for name, c in commands.items()})
    baseline = timings[BARE]
    for name, timing in timings.items():
        print(f"{name:50} {timing.min:6.2f} s min {timing.median:6.2f} s median  "
              f"{timing.ratio(baseline)}")  # fmt: skip
    ratio = timings[one_rule].min / baseline.min
    verdict = "met" if ratio <= TARGET else "not met"
    print(f"target: {one_rule} <= {TARGET}x the bare imports (min): {ratio:.2f}x, {verdict}")


if __name__ == "__main__":
    main()
