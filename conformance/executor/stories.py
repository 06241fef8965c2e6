"""How an executor's end is told: which signal or exit status, and the stacks it died with."""

from __future__ import annotations

import signal

_DUMP_LINES = 40
#: frames of the executor itself: a thread's stack is cut where they begin
_HARNESS_FRAMES = ("conformance/sphinx_doctest/", "conformance/executor/", "/doctest.py")


def crash_summary(returncode: int) -> str:
    if returncode < 0:
        try:
            how = f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"killed by signal {-returncode}"
    else:
        how = f"it exited with status {returncode}: os._exit, or an exit at the C level"
    return (
        f"the example crashed the interpreter ({how}); its executor process ended and a "
        "fresh one runs the next example"
    )


def still_running(threads: list[str]) -> str:
    """A note naming threads earlier examples left running, for a crash message."""
    if not threads:
        return ""
    return (
        "\nthreads alive when this example started (left by earlier examples, or the "
        "implementation's own; a crash in one of them is blamed on this example): "
        + ", ".join(threads)
    )


def hang_summary(timeout: float) -> str:
    return (
        f"hung past --example-timeout ({timeout:g} s) where Python could not interrupt it "
        "(in C code holding the GIL, a stopped process, or an implementation that swallowed "
        "the timeout); its executor process was ended"
    )


def trimmed_dump(text: str) -> str:
    """faulthandler's stacks, each thread's cut above the executor's frames, the example's
    thread first (at most _DUMP_LINES lines)."""
    blocks: list[list[str]] = []
    for line in text.strip().splitlines():
        if line.startswith(("Thread ", "Current thread ")) or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    trimmed: list[tuple[bool, list[str]]] = []
    for block in blocks:
        harness = next(
            (i for i, line in enumerate(block) if any(h in line for h in _HARNESS_FRAMES)), -1
        )
        trimmed.append((harness >= 0, block[:harness] if harness >= 0 else block))
    trimmed.sort(key=lambda entry: not entry[0])  # stable: the example's thread first
    lines = [
        line
        for _, block in trimmed
        for line in block
        if line.strip() and not line.startswith(("Timeout (", "Fatal Python error"))
    ]
    return "\n".join(lines[:_DUMP_LINES])


__all__ = ["crash_summary", "hang_summary", "still_running", "trimmed_dump"]
