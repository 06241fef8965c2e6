"""The shape of a generated fork/wait program, and hypothesis strategies that draw one.

A program is a tree of tasks. Each task forks its children (some waited, in
an order of their own, some never waited), may make a nested scripted call,
combines what it waited with its own arguments, and may raise. The shapes
are small (hypothesis shrinks a failure to the least program that still
shows it), and every choice is one the spec's rules give a meaning to:
keyword arguments (KWARGS-*), exceptions at wait (ERR-*), un-waited forks
(NEST-UNWAITED-1), nested scripted calls and forks from tasks (NEST-*).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

#: how a child's arguments are passed: ``bias`` left to its default, positionally, by
#: keyword, or both arguments by keyword
PASSING = ("default", "positional", "bias-keyword", "all-keywords")


@dataclass(frozen=True)
class Fork:
    """One fork a task makes."""

    task: Task
    #: one of PASSING
    passing: str
    #: the parent waits on it (else it is forked and never waited)
    waited: bool
    #: the parent catches what its wait raises (else a failure travels up through it)
    caught: bool = True
    #: the parent waits on it twice (the same value, or the same failure, again)
    twice: bool = False


@dataclass(frozen=True)
class Task:
    """One task: its constants, its forks, whether it raises, and in what order it waits."""

    scale: int
    bias: int
    forks: tuple[Fork, ...]
    #: indices into ``forks`` of the waited ones, in the order they are waited
    wait_order: tuple[int, ...]
    #: raises ValueError("task tN failed") after its waits (only a task someone waits on)
    raises: bool
    #: its first fork is a direct call of the scripted child instead (a nested scripted call)
    nested_script: bool


@st.composite
def _tree(draw: st.DrawFn, depth: int, waited: bool, least_forks: int = 0) -> Task:
    """A task ``depth`` levels deep at most; one nobody waits on never raises (its
    exception would be lost by design, which an implementation may warn about)."""
    most = 3 if depth > 0 else 0
    forks: list[Fork] = []
    for _ in range(draw(st.integers(min(least_forks, most), most))):
        child_waited = draw(st.booleans())
        child = draw(_tree(depth - 1, child_waited))
        passing = draw(st.sampled_from(PASSING))
        forks.append(Fork(child, passing, child_waited, draw(st.booleans()), draw(st.booleans())))
    waited_indices = [i for i, fork in enumerate(forks) if fork.waited]
    order = tuple(draw(st.permutations(waited_indices)))
    nested = bool(forks) and draw(st.booleans())
    # A failure left to travel up ends the task there: only its last wait (or call) may
    # leave one uncaught, so that no failed future is left behind unwaited; a task
    # nobody waits on catches every failure.
    folds = ([0] if nested else []) + [i for i in order if not (nested and i == 0)]
    last = folds[-1] if folds and waited else None
    forks = [
        fork
        if fork.caught or i == last
        else Fork(fork.task, fork.passing, fork.waited, True, fork.twice)
        for i, fork in enumerate(forks)
    ]
    return Task(
        scale=draw(st.integers(1, 5)),
        bias=draw(st.integers(-3, 3)),
        forks=tuple(forks),
        wait_order=order,
        raises=waited and draw(st.booleans()),
        nested_script=nested,
    )


def programs(depth: int = 3) -> st.SearchStrategy[Task]:
    """Trees of tasks up to ``depth`` levels below a root that forks at least once
    (up to 3 forks a task, so at most 40 tasks); they shrink toward one fork."""
    return _tree(depth, waited=True, least_forks=1)


def count_tasks(task: Task) -> int:
    return 1 + sum(count_tasks(fork.task) for fork in task.forks)


__all__ = ["PASSING", "Fork", "Task", "count_tasks", "programs"]
