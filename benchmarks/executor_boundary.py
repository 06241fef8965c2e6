"""The process boundary's cost: ``forkwait-conformance`` on the spec against ``sphinx-build``.

Every spec example runs in an executor process (conformance/executor/); this
times the CLI on the spec (reference implementation) with its default ``-n 0``
(one pytest process, one executor) and with ``-n 1`` (an xdist worker driving
the executor), against ``sphinx-build -b doctest -E`` on the same documents,
in the same run, taking turns. Prints each as a ratio to sphinx-build.

Run: ``python benchmarks/executor_boundary.py [--repeats N]`` (from the checkout).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _timing import interleaved

REPO = Path(__file__).resolve().parent.parent
SPHINX = "sphinx-build -b doctest -E"


#: contender -> CPU seconds (user + system, the process and all it waited for) per run
CPU: dict[str, list[float]] = {}


def runner(name: str, command: list[str]) -> Callable[[], object]:
    def run() -> object:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, cwd=REPO, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        CPU.setdefault(name, []).append(used)
        return done

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        sphinx = [sys.executable, "-m", "sphinx", "-b", "doctest", "-E", "-q"]
        sphinx += ["-c", str(REPO / "conf"), str(REPO / "docs"), out]
        cli = [sys.executable, "-m", "conformance.cli", "-q", "--impl", "reference"]
        commands = {
            SPHINX: sphinx,
            "forkwait-conformance (-n 0, the default)": cli,
            "forkwait-conformance -n 1": [*cli, "-n", "1"],
        }
        runner("warm-up", cli)()  # Sphinx's environment cached, as after any first run
        runs = {name: runner(name, command) for name, command in commands.items()}
        timings = interleaved(args.repeats, runs)
    baseline = timings[SPHINX]
    for name, timing in timings.items():
        cpu = min(CPU[name]) / min(CPU[SPHINX])
        print(f"{name:42} {timing.min:6.2f} s  wall {timing.ratio(baseline)}; CPU {cpu:.2f}x min")


if __name__ == "__main__":
    main()
