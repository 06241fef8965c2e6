"""The dimensions a rule's clauses range over, and the partitions each is cut into.

A clause of a MUST ("any callable", "in plain Python and in scripted code",
"however many tasks") quantifies over a dimension; a probe that never drives
one of its partitions leaves a one-bug implementation free to fail there
unseen. The clause inventory (``docs/clauses/<page>.toml``) names, for every
clause, its dimension and, for each partition listed here, the example or
probe that covers it, a reason it does not apply, or an open gap. One
definition: the inventory's check and its page read the partitions from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Dimension:
    """What a clause can range over, and its partitions (name -> what falls in it)."""

    about: str
    partitions: Mapping[str, str]


DIMENSIONS: Mapping[str, Dimension] = {
    "origin": Dimension(
        "where the call comes from",
        {
            "plain": "plain Python, the program's own thread",
            "scripted": "scripted code (a function or module compiled by fw.script)",
            "task": "a forked task, run by whatever thread runs tasks",
            "thread": "a second Python thread, at the same time as another caller",
            "callback": "a callback given to then or add_done_callback",
            "explorer": "a top-level scripted call inside explorer.use(name)",
            "trace": "code that fw.trace is recording",
        },
    ),
    "callable": Dimension(
        "the kind of callable given to fork",
        {
            "function": "a function defined with def",
            "lambda": "a lambda",
            "closure": "a nested function that reads a variable of its enclosing scope",
            "bound-method": "a bound method of an instance",
            "callable-instance": "an instance of a class with __call__",
            "builtin": "a builtin function or method (max, len, str.join)",
            "partial": "a functools.partial",
            "class": "a class (its call makes an instance)",
            "scripted": "a function or module compiled by fw.script",
            "module": "an instance of a fw.Module subclass",
        },
    ),
    "future": Dimension(
        "how the future was made",
        {
            "forked": "returned by fw.fork in plain Python or a task",
            "scripted-fork": "returned by fork in scripted code",
            "then": "returned by then",
            "collect-all": "returned by fw.collect_all",
            "created": "made by fw.Future() and completed by hand",
        },
    ),
    "phase": Dimension(
        "the state of a future when the call is made",
        {
            "pending": "not done: its task queued or running, or not completed yet",
            "done": "completed with a value",
            "failed": "completed with an exception",
        },
    ),
    "exception": Dimension(
        "the class of what is raised",
        {
            "exception": "an Exception subclass",
            "base-subclass": "a BaseException subclass of the program's own",
            "keyboard-interrupt": "KeyboardInterrupt",
            "system-exit": "SystemExit",
            "generator-exit": "GeneratorExit",
        },
    ),
    "count": Dimension(
        "how many of the things the clause counts",
        {
            "zero": "none: the empty end of 'for each'",
            "one": "exactly one",
            "many": "several, within what the rule states",
            "past-table": "more than any fixed table or small bound an implementation could keep",
        },
    ),
    "depth": Dimension(
        "how deep tasks nest",
        {
            "one": "a task that forks and waits one level down",
            "deep": "tens to hundreds of levels",
            "past-stack": "1,000 levels or more: deeper than a direct recursive call goes "
            "under CPython's default recursion limit",
        },
    ),
    "waiter": Dimension(
        "how the code waits on a future",
        {
            "fw-wait": "fw.wait(fut)",
            "wait-method": "fut.wait()",
            "wait-all": "fw.wait_all([...])",
            "collect-all": "waiting on the future fw.collect_all returns",
            "then": "a callback given to then",
        },
    ),
    "arguments": Dimension(
        "how arguments are given",
        {
            "none": "no arguments",
            "positional": "by position only",
            "keyword": "by keyword only",
            "mixed": "by position and keyword, keywords in any order",
            "defaults": "some left to their defaults",
            "reserved-names": "keywords named like fork's own parameters (func, args, kwargs)",
        },
    ),
    "lifetime": Dimension(
        "the runtime's history when the call is made",
        {
            "fresh": "a runtime that has run little so far",
            "idled": "after the runtime's threads have idled out",
            "churned": "after many threads came and went",
            "crowded": "while the runtime's threads are all busy and its queue is long",
        },
    ),
    "timing": Dimension(
        "how 'before it returns' / 'by the time' is checked",
        {
            "immediate": "the other side has nothing to wait for",
            "held": "the other side is held on an event, so a deferral is seen",
            "slow": "the work takes long (a sleep), so a race cannot hide a deferral",
        },
    ),
    "container": Dimension(
        "what holds the futures",
        {
            "list": "a list",
            "tuple": "a tuple",
            "dict": "a dict",
            "optional": "an Optional (a future or None)",
        },
    ),
}

#: how a partition is accounted for: covered by an example or a probe, or not, and why
COVERAGE_KINDS = ("example", "probe", "reason", "gap")
