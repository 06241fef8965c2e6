"""wait from plain Python on a future made by scripted code hangs in C, GIL held.

The same failure torch.jit.wait shows (see torch_xfails.toml): no Python-level
timeout can fire, so only the suite's watchdog, which needs no GIL, ends it.
"""

import ctypes
import signal
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._state import state
from tests.mutants._base import mutant

# PyDLL keeps the GIL during the call, unlike CDLL
_libc = ctypes.PyDLL(None)


def wait(future: Any) -> Any:
    made_by_scripted_code = isinstance(future, ref.Future) and future._lock is not None
    in_plain_python = not state.scripted and state.current is None
    if made_by_scripted_code and in_plain_python:
        # no signal may wake this thread, so not even SIGALRM-based timeouts fire
        signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        _libc.pause()
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("wedges-in-c", wait=wait)
