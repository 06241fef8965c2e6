"""A task's interrupt is raised by the first wait only; later waits give None.

A wait that delivers a task's KeyboardInterrupt, SystemExit or GeneratorExit
once, as an interrupt is delivered once to a thread, and then treats it as
handled, so that later waits on the same future find neither a failure nor a
value. Failures that are Exceptions, or BaseException subclasses of the
program's own, are kept as they should be. It breaks ERR-WAIT-AGAIN-1:
"Waiting again on a failed future MUST raise again, every time".
"""

import weakref
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-WAIT-AGAIN-1",
    extras={
        "ERR-BASE-EXCEPTION-1": "probe 3 waits twice on each future its tasks failed with "
        "KeyboardInterrupt, SystemExit or GeneratorExit: the second wait returns None",
        "FUTURE-COLLECT-ALL-FAIL-1": "probe 3 waits on each given future before it waits "
        "again on the failed one from collect_all's list: that wait returns None",
    },
)

_INTERRUPTS = (KeyboardInterrupt, SystemExit, GeneratorExit)
_delivered: "weakref.WeakSet[Any]" = weakref.WeakSet()


def wait(future: Any) -> Any:
    if isinstance(future, ref.Future) and future in _delivered:
        return None
    try:
        return ref.wait(future)
    except _INTERRUPTS:
        if isinstance(future, ref.Future):
            _delivered.add(future)
        raise


def adapter() -> Adapter:
    return mutant("delivers-interrupts-once", wait=wait)
