"""done() is True only for a future with a value: a failed task's future never looks done.

``done()`` written as "has a value" (a success flag), so that a task that raised
never looks done. It breaks FUTURE-DONE-FAILED-1: "A future whose task raised is
done: future.done() MUST return True once wait on it has raised".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-DONE-FAILED-1",
    extras={
        "ERR-BASE-EXCEPTION-1": reasons.POLLS_DONE_ON_FAILED,
        "ERR-SCRIPT-AT-WAIT-1": reasons.POLLS_DONE_ON_FAILED,
        "ERR-WAIT-AGAIN-1": reasons.POLLS_DONE_ON_FAILED,
        "NEST-UNWAITED-1": reasons.POLLS_DONE_ON_FAILED,
        "WAIT-SAME-OBJECT-1": reasons.POLLS_DONE_ON_FAILED,
        "FUTURE-THEN-1": (
            "its probe chains then on failed futures, which never look done, so the callback "
            "never runs"
        ),
        "FUTURE-COLLECT-ALL-FAIL-1": "the probe polls done() of futures that failed, which say no",
    },
    maybe={
        "FUTURE-WAIT-ALL-FIRST-1": "the probe's settle loop polls done() of a failed future "
        "until its patience runs out, which may or may not pass the deadline",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)


class ValueDone(ref.Future[Any]):
    __slots__ = ()

    def done(self) -> bool:
        if not super().done():
            return False
        try:
            ref.wait(self)
        except BaseException:  # noqa: BLE001 - the mutation: a failure is not "done"
            return False
        return True


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    future.__class__ = ValueDone  # still an fw.Future
    return future


def adapter() -> Adapter:
    return mutant("done-false-on-failure", fork=fork)
