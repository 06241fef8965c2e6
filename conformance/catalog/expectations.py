"""Expected-failures and skips files: what an implementation knowingly fails, or must not run.

Like array-api-tests' ``--xfails-file`` and ``--skips-file``, keyed by
requirement ID, in TOML::

    ["WAIT-SAME-OBJECT-1"]
    reason = "each torch.jit.wait converts the result anew"
    examples = [2]          # optional: which of the requirement's examples (from 1)

An expected failure covers the examples it names (all of them if it names
none), each strictly: a covered example that passes fails the run, so the
list cannot hide a fix, and an example it does not cover still counts, so it
cannot hide a regression. A crash or hang is never absorbed by it. Known
crashes and hangs go in a *skips* file instead: those examples are not run.

An example whose outcome depends on timing (it fails in some runs, passes in
others) is declared so with ``flaky = true`` in its expected-failures entry,
as web-platform-tests' expectation files list several statuses: both outcomes
are accepted, and the verdict counts and names such examples apart.

A reason that starts with ``TO CONFIRM:`` is a draft's (``triage
--write-expectations``): the run counts such declarations, and ``--strict``
fails on them.

Every entry needs a reason; an ID the spec does not define, or an example
number the requirement does not have, is an error.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: the prefix of a drafted reason: its author has not confirmed it yet
TO_CONFIRM = "TO CONFIRM: "


def unconfirmed(reason: str) -> bool:
    """Is ``reason`` still a draft's (starts with TO_CONFIRM, in any spacing)?"""
    return " ".join(reason.split()).startswith(TO_CONFIRM.strip())


class XfailsError(ValueError):
    """An expected-failures or skips file that cannot be used as written."""


@dataclass(frozen=True)
class Entry:
    """Why a requirement's examples fail (or are skipped), and which of them."""

    reason: str
    #: 1-based example numbers; None means every example of the requirement
    examples: frozenset[int] | None = None
    #: its outcome depends on timing: a pass is accepted as well as the failure
    flaky: bool = False

    def covers(self, example: int) -> bool:
        return self.examples is None or example in self.examples


Entries = dict[str, Entry]


def normalise(entries: Mapping[str, str | Entry]) -> Entries:
    """Accept the short form ``{"ID": "reason"}`` (every example) as well as Entries."""
    return {
        req_id: entry if isinstance(entry, Entry) else Entry(" ".join(str(entry).split()))
        for req_id, entry in entries.items()
    }


#: what a skips file is called in errors (load_entries' ``what``)
SKIPS_WHAT = "skips"


def load_entries(path: Path, what: str = "expected-failures") -> Entries:
    """Requirement ID -> Entry, from a TOML expected-failures or skips file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise XfailsError(f"{what} file {path}: {exc}") from exc
    result: Entries = {}
    for req_id, entry in data.items():
        reason = entry.get("reason") if isinstance(entry, dict) else None
        if not isinstance(reason, str) or not reason.strip():
            raise XfailsError(f"{what} file {path}: [{req_id}] needs a reason")
        examples = entry.get("examples")
        if examples is not None and (
            not isinstance(examples, list)
            or not examples
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in examples)
        ):
            raise XfailsError(
                f"{what} file {path}: [{req_id}] examples must be a list of example "
                f"numbers (1 for the requirement's first example), got {examples!r}"
            )
        unknown = set(entry) - {"reason", "examples", "flaky"}
        if unknown:
            raise XfailsError(f"{what} file {path}: [{req_id}] has unknown keys {sorted(unknown)}")
        flaky = entry.get("flaky", False)
        if not isinstance(flaky, bool):
            raise XfailsError(f"{what} file {path}: [{req_id}] flaky must be true or false")
        if flaky and what == SKIPS_WHAT:
            raise XfailsError(
                f"{what} file {path}: [{req_id}] flaky belongs in the expected-failures "
                "file: a skipped example does not run, so it has no outcome to accept"
            )
        result[req_id] = Entry(
            " ".join(reason.split()),
            frozenset(examples) if examples is not None else None,
            flaky,
        )
    return result


def check_known(entries: Mapping[str, Entry], examples: Mapping[str, int], source: str) -> None:
    """Reject IDs the spec lacks and example numbers a requirement does not have.

    ``examples`` maps each requirement ID to how many examples it has.
    """
    unknown = sorted(set(entries) - set(examples))
    if unknown:
        raise XfailsError(f"{source} lists unknown requirements: {', '.join(unknown)}")
    for req_id, entry in entries.items():
        beyond = sorted(n for n in entry.examples or () if n > examples[req_id])
        if beyond:
            raise XfailsError(
                f"{source}: [{req_id}] names example(s) {beyond}, but the requirement has "
                f"{examples[req_id]}"
            )
