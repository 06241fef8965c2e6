"""The future ``then`` returns never completes when the callback raises a BaseException.

The independent fork/join implementation's ``then`` catches ``Exception``
around the callback: a ``KeyboardInterrupt`` or a ``BaseException`` subclass
escapes to the code completing the source future, and the follower stays
pending.

It breaks FUTURE-THEN-ERROR-1 ("This holds for any BaseException the callback
raises ... it MUST NOT be raised to the code that completed the future").
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("FUTURE-THEN-ERROR-1", slow=True)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "future.py",
        old=(
            "            except BaseException as error:  # noqa: BLE001 -"
            " the follower carries every failure"
        ),
        new="            except Exception as error:",
    ),
)
adapter = VARIANT.adapter
