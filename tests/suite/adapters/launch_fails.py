"""An adapter whose engine fails in the program LIFECYCLE-EXIT-1 launches, and only there.

Its ``fork`` refuses to run in that child interpreter (``program.py``), with an
error on the child's stderr: the example's failure must show that error and
every line of the example that launched the child (tests/suite/test_launching_example.py).
"""

import os
import sys
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant

REFUSAL = "this engine cannot fork in a child interpreter (launch-fails adapter)"


def fork(func: Any, *args: Any, **kwargs: Any) -> Any:
    if os.path.basename(sys.argv[0]) == "program.py":
        raise RuntimeError(REFUSAL)
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("launch-fails", profiles=["core", "async"], fork=fork)
