"""What a mutant must fail, and why: the contract each mutant module declares.

Every mutant module of tests/mutants says, after its docstring and imports,
``CONTRACT = contract("RULE-1", ..., extras={"OTHER-1": "why"})``: the rules its
mutation is meant to break, and every other rule the mutant fails with the
reason it does. The runner (tests/mutants/test_mutants.py) holds each mutant
to exactly that, and the spec's coverage page lists what it declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Contract:
    """The requirements one mutant fails, and how its run is scheduled."""

    #: the rules the mutation is meant to break
    breaks: frozenset[str]
    #: rule -> why this mutant fails it too: a rule whose examples or probes lean on the
    #: behaviour the mutation changes (deliberate, not an accident)
    extras: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: rule -> why it may fail it too, depending on timing (a failure measured to come and
    #: go between runs of the same mutant)
    maybe: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: crashes, hangs or waits out deadlines: its run takes longest, so it starts first
    slow: bool = False
    #: breaks only SHOULDs: run with --strict, so that the run fails as a MUST's would
    strict: bool = False
    #: a *survivor*: the suite passes it although it breaks the rules of ``breaks`` (its
    #: docstring shows the break with a program), and this says what no probe drives yet.
    #: Its runs must pass, so that a probe that starts catching it is noticed and the
    #: survivor becomes an ordinary mutant; the coverage page lists it as an open gap
    survives: str = ""
    #: caught by chance: the suite fails the rules of ``breaks`` in some runs only (a race
    #: that no probe forces), and this says which race. A run may fail them or pass; it fails
    #: nothing else. Like a survivor, it is an open gap of the coverage page
    chance: str = ""

    @property
    def fails(self) -> frozenset[str]:
        """Every rule a run of the mutant on the whole spec must fail."""
        return self.breaks | frozenset(self.extras)


def contract(
    *breaks: str,
    extras: Mapping[str, str] | None = None,
    maybe: Mapping[str, str] | None = None,
    slow: bool = False,
    strict: bool = False,
    survives: str = "",
    chance: str = "",
) -> Contract:
    """A mutant's contract: the rules it ``breaks`` and the reasoned ``extras`` and ``maybe``
    (or, for a survivor, what the suite does not drive yet that would catch it; for a mutant
    caught by chance, the race no probe forces)."""
    if survives and (extras or chance):
        raise ValueError("a survivor passes the whole suite: it has no extras and no chance")
    return Contract(
        breaks=frozenset(breaks),
        extras=MappingProxyType(dict(extras or {})),
        maybe=MappingProxyType(dict(maybe or {})),
        slow=slow,
        strict=strict,
        survives=survives,
        chance=chance,
    )
