"""threadper runs a future's callbacks while it holds the future's lock.

SURVIVOR: it passes the whole spec while it breaks the rules its CONTRACT names; the
program at the end of this docstring shows the break.

A variant of the independent thread-per-task implementation: completing a
future runs its callbacks inside the ``with self._cond`` block that sets the
outcome, so that no callback can be added between the state change and the
run. The lock is a ``threading.Condition``'s reentrant one, so a callback that
reads its future or adds a callback to it on the completing thread works (the
reference's mutant of this name deadlocks there); but any other thread that
touches the future while a callback runs blocks until the callbacks end: a
waiter cannot wake, and a callback that waits for another thread reading the
future never returns, nor does ``set_result``. It breaks FUTURE-WAKES-WAITERS-1
(``set_result`` "MUST wake every thread blocked in ``wait()``") and
FUTURE-ADD-DONE-CALLBACK-1 (the callbacks added before ``set_result`` "have run
by the time it returns": it never returns).

The break (threadper prints ``True`` twice; the variant ``False``, then ``True``, and with
an unbounded wait in the callback it never returns)::

    fut, woke = fw.Future(), threading.Event()

    def waiter() -> None:
        fut.wait()
        woke.set()

    thread = threading.Thread(target=waiter, daemon=True)
    thread.start()
    time.sleep(0.2)  # the waiter is blocked in wait()
    fut.add_done_callback(lambda f: print("woke during callback:", woke.wait(timeout=2)))
    fut.set_result(1)
    thread.join(5)
    print("woke:", woke.is_set())
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-WAKES-WAITERS-1",
    "FUTURE-ADD-DONE-CALLBACK-1",
    survives="no probe has a callback wait for another thread that is blocked waiting on the "
    "same future (callbacks that run in the completing thread pass, the lock being reentrant)",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "EXPLORER-FINISHES-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "futures.py",
        old="""            self._cond.notify_all()
        for run in callbacks:
            run(self)
""",
        new="""            self._cond.notify_all()
            for run in callbacks:
                run(self)
""",
    ),
)
adapter = VARIANT.adapter
