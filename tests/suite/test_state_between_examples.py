"""What an example changes in its executor cannot decide a later example's outcome.

Each example's state that could turn a later *failing* example into a pass, or break
the executor, is put back after it (conformance/executor/state.py): the builtins, the
code that judges output (doctest's module and the runner's and checker's classes), the
standard streams closed or replaced, every signal's disposition (SIGPIPE's) and mask,
and the public names of ``fw``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO


def _requirement(rid: str, *blocks: str) -> str:
    text = f".. requirement:: {rid}\n   :profile: core\n   :level: MUST\n\n   It MUST hold.\n\n"
    for block in blocks:
        text += ".. testcode::\n\n" + "".join(f"   {line}\n" for line in block.splitlines())
        text += "\n"
    return text


#: (requirement, the example that changes state, the later one, how that later one ends)
CASES = {
    "PRINT-1": (
        "import builtins\nbuiltins.print = lambda *args, **kwargs: None",
        'print("a testcode without testoutput must print nothing")',
        "failed",
    ),
    "CHECKER-1": (
        "import doctest\ndoctest.OutputChecker.check_output = lambda *args: True",
        'print("got")',  # no testoutput: prints what it must not
        "failed",
    ),
    "ELLIPSIS-1": (
        "import doctest\ndoctest._ellipsis_match = lambda *args: True",
        'print("got")',
        "failed",
    ),
    "FW-1": (  # the implementation under test, replaced by one that gives the right value
        "fw.wait = lambda future: 42",
        "assert fw.wait(fw.fork(abs, -2)) == 42",
        "failed",
    ),
    "STREAMS-1": (
        "import signal, sys\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
        "sys.__stdout__.close()\nsys.__stderr__.close()",
        "import signal, sys\nassert signal.getsignal(signal.SIGPIPE) is signal.SIG_IGN\n"
        "assert not sys.__stdout__.closed and not sys.__stderr__.closed\n"
        'sys.__stderr__.write("still writable")\nsys.__stderr__.flush()',
        "passed",
    ),
    "MASK-1": (
        "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})",
        "import signal\nassert signal.SIGUSR2 not in signal.pthread_sigmask(signal.SIG_BLOCK, ())",
        "passed",
    ),
}


def test_an_example_s_changes_do_not_decide_the_next_example(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    for rid, (change, later, _) in CASES.items():
        page = f"{rid}\n{'=' * len(rid)}\n\n" + _requirement(rid, change, later)
        (spec / f"{rid.lower()}.rst").write_text(page)
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--spec-root", str(spec), "-q",
         "--report", str(report)],
        capture_output=True, text=True, timeout=300, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found = {
        r["id"]: [e["outcome"] for e in r["results"]]
        for r in json.loads(report.read_text())["requirements"]
    }
    assert found == {rid: ["passed", outcome] for rid, (_, _, outcome) in CASES.items()}
