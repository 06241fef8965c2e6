"""``forkwait-conformance``'s entry point: it owns Ctrl-C and SIGTERM before anything else.

The command itself (options, pytest's command line, the subcommands) is
``conformance/command.py``; it is imported only once the stop signals are
taken over (stopping.py), so a run stopped while pytest, Sphinx or the suite
are still being imported, or while Sphinx reads the spec, ends as any stopped
run does: exit status 2 and, with ``--report``, a report marked interrupted
(one that ran nothing, when nothing ran yet).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from conformance.stopping import hold_stops, received, stop_like_ctrl_c

#: pytest's ExitCode.INTERRUPTED, without importing pytest before the signals are ours
INTERRUPTED = 2


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    stop_like_ctrl_c()
    before = set(sys.modules)
    stopped: KeyboardInterrupt | None = None
    try:
        from conformance import command  # noqa: PLC0415 - only once the signals are ours

        status = command.main(args)
    except KeyboardInterrupt as exc:  # before pytest's session could handle it
        stopped, status = exc, INTERRUPTED
    except Exception:
        if not received:
            raise
        # a stop inside an import that something caught on its way up leaves a module half
        # made, and the next import that needs it fails: that is the stop's doing
        stopped, status = KeyboardInterrupt(received[0]), INTERRUPTED
    if status != INTERRUPTED:
        return status
    hold_stops()
    if stopped is not None:  # modules the stop may have left half made are made again, whole
        for name in set(sys.modules) - before:
            del sys.modules[name]
    from conformance import command  # noqa: PLC0415

    command.leave_interrupted_report(args, stopped)
    return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
