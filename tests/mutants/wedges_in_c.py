"""A plain-Python wait on a running scripted task holds the GIL: the task cannot call Python.

The same failure torch.jit.wait shows (see torch_xfails.toml): torch.jit.wait
keeps the GIL while it blocks, so a task that calls a plain-Python (fw.ignore)
function deadlocks with it. Here the waiting thread hangs in C with the GIL
held once the task needs Python; no Python-level timeout can fire, so only the
suite's watchdog, which needs no GIL, ends it. Waits on tasks that never call
Python while waited work as on the reference.

It breaks WAIT-FROM-PYTHON-1: "A future that scripted code returns while its
task is still running MUST be waitable from plain Python with fw.wait, and give
the task's value".
"""

import ctypes
import functools
import signal
import threading
import time
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._core import SCRIPTED_TASK
from reference_impl._thread_state import local
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "WAIT-FROM-PYTHON-1",
    extras={
        "FUTURE-WAIT-ALL-FIRST-1": "wait_all from Python on tasks that call Python",
        "WAIT-SAME-OBJECT-1": "Python threads wait on a future that scripted code returned",
    },
    maybe={
        "ERR-WAIT-AGAIN-1": "Python threads wait on a future that scripted code returned: they "
        "hang only if its task calls Python while one of them waits",
        "FUTURE-DONE-FAILED-1": "Python threads wait on a failing task that calls Python: they "
        "hang only if it does so while one of them waits",
        "SCRIPT-IGNORE-1": "the probe's ignored function may run while a Python wait holds on",
        "FUTURE-RETURNED-1": "Python waits on futures that scripted code returned: they hang "
        "only if a task calls Python while one of them waits",
    },
    slow=True,  # its wedged waits hang until the watchdog ends them
)

# PyDLL keeps the GIL during the call, unlike CDLL
_libc = ctypes.PyDLL(None)
_waiting_in_c = threading.Event()  # a plain-Python wait "holds the GIL"
_task_needs_python = threading.Event()


def _enter_python() -> None:
    if _waiting_in_c.is_set() and local.state.current is not None:
        _task_needs_python.set()
        threading.Event().wait()  # this task never gets the GIL back


def ignore(func: Any) -> Any:
    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        _enter_python()
        try:
            return func(*args, **kwargs)
        finally:
            _enter_python()

    return call


def _wedge() -> None:
    # no signal may wake this thread, so not even SIGALRM-based timeouts fire
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    _libc.pause()


def wait(future: Any) -> Any:
    made_by_scripted_code = isinstance(future, ref.Future) and future._kind is SCRIPTED_TASK
    in_plain_python = not local.state.scripted and local.state.current is None
    if made_by_scripted_code and in_plain_python and not future.done():
        _waiting_in_c.set()
        try:
            while not future.done():  # the pool runs the task; this thread only blocks
                if _task_needs_python.is_set():
                    _wedge()
                time.sleep(0.001)
        finally:
            _waiting_in_c.clear()
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("wedges-in-c", wait=wait, ignore=ignore)
