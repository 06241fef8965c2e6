"""A generated program as Python source: what runs, and what a failure shows.

Every task is a top-level function ``t<N>(x, bias=7)`` (numbered in pre-order,
``t0`` the root), and the source that runs is the source a failure prints (its
helpers included), so that the printed program, run alone against the same
``fw``, fails as the run did. Each task notes that it ran (``note``, an
``fw.ignore``'d helper that appends to ``ran`` under ``lock``, as the spec's
examples record side effects), forks its children,
makes its nested scripted call, then waits in its own order (some futures
twice), folding each value into ``total`` so that a swapped or lost value
changes the result. A failure at a wait or a nested call is either caught
there, folding in which task failed (read from the exception's text, which
the spec says contains the original message), or left to travel up. The fold
is not commutative on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance.programs.shapes import Fork, Task

#: what a caught failure adds to a task's total, besides the number of the task that failed
CAUGHT = 1000
#: every task's default ``bias``: not 0, so that a default lost to 0 shows
DEFAULT_BIAS = 7


@dataclass(frozen=True)
class Rendered:
    """A program's source, and which tasks must have run once it returns."""

    source: str
    tasks: int
    #: tasks reached from the root through the waits and direct calls that happen: each
    #: must have run exactly once when the program returns
    awaited: frozenset[int]


HEADER = f"""\
import re
import threading

ran = []
lock = threading.Lock()


@fw.ignore
def note(number: int) -> None:
    \"\"\"Note that task ``number`` ran: the program's only side effect.\"\"\"
    with lock:
        ran.append(number)


@fw.ignore
def failed_task(error: Exception) -> int:
    \"\"\"The task whose failure ``error`` reports: its text must contain the message.\"\"\"
    found = re.search(r"task t([0-9]+) failed", str(error))
    return {CAUGHT} + int(found.group(1)) if found else -{CAUGHT}"""


def _fold(expression: str, caught: bool) -> list[str]:
    """Fold one value into ``total``; a caught failure folds in which task failed."""
    if not caught:
        return [f"    total = total * 3 + {expression}"]
    return [
        "    try:",
        f"        value = {expression}",
        "    except Exception as exc:",
        "        value = failed_task(exc)",
        "    total = total * 3 + value",
    ]


def _arguments(fork: Fork, offset: int) -> str:
    x = f"x + {offset}"
    bias = fork.task.bias
    return {
        "default": x,
        "positional": f"{x}, {bias}",
        "bias-keyword": f"{x}, bias={bias}",
        "all-keywords": f"x={x}, bias={bias}",
    }[fork.passing]


def render(root: Task) -> Rendered:
    """The source of the program rooted at ``root``."""
    functions: list[str] = []
    scripted: list[int] = []

    def emit(task: Task, number: int) -> int:
        """Write task ``number``'s function (children after it); the next free number."""
        lines = [
            f"def t{number}(x: int, bias: int = {DEFAULT_BIAS}) -> int:",
            f"    note({number})",
        ]
        next_number = number + 1
        direct = task.nested_script and bool(task.forks)
        children: list[tuple[int, Fork]] = []
        for fork in task.forks:
            children.append((next_number, fork))
            next_number = emit(fork.task, next_number)
        for position, (child, fork) in enumerate(children):
            call = _arguments(fork, position + 1)
            if position == 0 and direct:
                continue
            name = f"f{position}" if fork.waited else "_"
            lines.append(f"    {name} = fw.fork(t{child}, {call})")
        lines.append(f"    total = x * {task.scale} + bias")
        if direct:
            child, fork = children[0]
            scripted.append(child)
            lines += _fold(f"s{child}({_arguments(fork, 1)})", fork.caught)
        for index in task.wait_order:
            if index == 0 and direct:
                continue
            fork = task.forks[index]
            for _ in range(2 if fork.twice else 1):
                lines += _fold(f"fw.wait(f{index})", fork.caught)
        if task.raises:
            lines.append(f"    raise ValueError('task t{number} failed')")
        else:
            lines.append("    return total")
        functions.append("\n".join(lines))
        return next_number

    count = emit(root, 0)
    functions.sort(key=lambda text: int(text.split("(", 1)[0].removeprefix("def t")))
    tail = [f"s{n} = fw.script(t{n})" for n in sorted(scripted)]
    parts = [HEADER, *functions, "\n".join(tail)] if tail else [HEADER, *functions]
    source = "\n\n\n".join(parts) + "\n"
    return Rendered(source, count, frozenset(_reached(root, 0)))


def _size(task: Task) -> int:
    return 1 + sum(_size(fork.task) for fork in task.forks)


def fails(task: Task) -> bool:
    """Whether the task fails: it raises, or a failure it does not catch reaches it."""
    return task.raises or any(not fork.caught and fails(fork.task) for fork in _called(task))


def _called(task: Task) -> list[Fork]:
    """The forks a task waits on (or calls directly), in order, up to the first failure
    it does not catch: the waits after that one never happen."""
    direct = task.nested_script and bool(task.forks)
    order = ([0] if direct else []) + [i for i in task.wait_order if not (direct and i == 0)]
    called: list[Fork] = []
    for index in order:
        fork = task.forks[index]
        called.append(fork)
        if not fork.caught and fails(fork.task):
            break
    return called


def _reached(task: Task, number: int) -> set[int]:
    """Task ``number`` and every task its waits and direct calls reach: each of them must
    have run exactly once by the time the task's own call or wait is over."""
    numbers: dict[int, int] = {}
    child = number + 1
    for fork in task.forks:
        numbers[id(fork)] = child
        child += _size(fork.task)
    reached = {number}
    for fork in _called(task):
        reached |= _reached(fork.task, numbers[id(fork)])
    return reached


__all__ = ["CAUGHT", "Rendered", "fails", "render"]
