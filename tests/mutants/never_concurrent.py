"""script compiles nothing: scripted forks run synchronously, one after the other.

Scripted code stays plain Python, whose forks run their task on the spot, as
torch.jit.fork does outside TorchScript. It breaks ASYNC-RETURNS-EARLY-1: "In
scripted code, fork MUST return before the forked task has finished".
"""

from typing import Any

from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ASYNC-RETURNS-EARLY-1",
    extras={
        "SCRIPT-MODULE-1": (
            "its probe's two tasks of a scripted forward meet at a barrier, which tasks run one "
            "after the other never open"
        ),
        "ASYNC-CONCURRENT-1": reasons.NEEDS_EARLY_RETURN,
        "CONTEXT-SNAPSHOT-1": reasons.NEEDS_EARLY_RETURN,
        "FUTURE-DONE-1": reasons.NEEDS_EARLY_RETURN,
        "WAIT-FROM-PYTHON-1": reasons.NEEDS_EARLY_RETURN,
        "WAIT-SELF-1": "the tasks run inside fork, before their futures are published",
    },
    slow=True,  # its run sleeps out many deadlines and probes' patience
)


def script(fn: Any) -> Any:
    return fn


def adapter() -> Adapter:
    return mutant("never-concurrent", script=script)
