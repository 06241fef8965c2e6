"""A trace rejects a fork whose body returns no tensor only where the fork is waited.

The independent fork/join implementation checks each forked body's result
when the body ends; this variant checks the value a wait node receives, so a
fork nobody waits on that only had side effects is recorded as an empty
subgraph.

It breaks TRACE-NO-DATA-1 ("The rule speaks of every forked function, whether
or not anything waits on its future").
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("TRACE-NO-DATA-1")

VARIANT = Variant(
    "forkjoin",
    Edit(
        "tracing.py",
        old=(
            "            if isinstance(result, Tensor):\n"
            "                body.graph.output = body.name_of(result)\n"
            "            else:\n"
            "                self.session.errors.append(\n"
            "                    f\"the forked function {getattr(func, '__"
            "name__', func)!r} returned \"\n"
            '                    f"{type(result).__name__}, not a tensor:'
            ' a graph cannot hold what it did"\n'
            "                )\n"
            "            return result"
        ),
        new=(
            "            if isinstance(result, Tensor):\n"
            "                body.graph.output = body.name_of(result)\n"
            "            return result"
        ),
    ),
    Edit(
        "tracing.py",
        old=(
            "            name = self._new_name()\n"
            '            self._add(Node("wait", [source], [name]))\n'
            "            self.bind(value, name)"
        ),
        new=(
            "            if not isinstance(value, Tensor):\n"
            "                self.session.errors.append(\n"
            '                    f"a waited fork gave {type(value).__name'
            '__}, not a tensor"\n'
            "                )\n"
            "            name = self._new_name()\n"
            '            self._add(Node("wait", [source], [name]))\n'
            "            self.bind(value, name)"
        ),
    ),
)
adapter = VARIANT.adapter
