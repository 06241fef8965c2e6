"""wait_all waits on every future, then raises the last failure instead of the first.

The independent fork/join implementation's ``wait_all`` collects the
failures of all the futures and raises the one it collected last.

It breaks FUTURE-WAIT-ALL-FIRST-1 ("the exception it raises MUST be that of
the first failed future in the list").
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("FUTURE-WAIT-ALL-FIRST-1")

VARIANT = Variant(
    "forkjoin",
    Edit(
        "runtime.py",
        old=(
            '    items = _checked(futures, "wait_all")\n    return [item.wait() for item in items]'
        ),
        new=(
            '    items = _checked(futures, "wait_all")\n'
            "    values: list[T] = []\n"
            "    failures: list[BaseException] = []\n"
            "    for item in items:\n"
            "        try:\n"
            "            values.append(item.wait())\n"
            "        except BaseException as error:  # noqa: BLE001\n"
            "            failures.append(error)\n"
            "    if failures:\n"
            "        raise failures[-1]\n"
            "    return values"
        ),
    ),
)
adapter = VARIANT.adapter
