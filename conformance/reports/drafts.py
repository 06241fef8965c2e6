"""Expected-failures and skips files drafted from a report, for the author to confirm.

What ``wpt update-expectations`` does from a run's log: each failing
requirement gets one table, naming the examples that failed and, as the draft
reason, the cause measured (``TO CONFIRM: TypeError: ...``). A failure an
expected-failure entry can absorb (wrong output, an exception) goes to
``xfails.toml``; one it cannot (a timeout, hang or crash, which would cost
the deadline every run; a group setup or cleanup that failed) goes to
``skips.toml``, whose examples are not run. An entry given on the command line
replaces the adapter's own entry for its requirement, so a drafted entry also
names the examples the run already counted as declared (xfailed, or skipped
by a list), with their reasons. The format is conformance/catalog/expectations.py's;
the text is checked by reading it back with the suite's own loader.
"""

from __future__ import annotations

import json
import textwrap
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.reports.json_report import ExampleRecord, RequirementRecord, RunReport
from conformance.reports.triage import incompleteness
from conformance.sphinx_doctest.outcome import FailureKind

#: the prefix of every drafted reason: the author confirms it (and says why) before keeping it
TO_CONFIRM = "TO CONFIRM: "
#: failures no expected-failure entry absorbs: their examples are drafted as skips
SKIP_KINDS = tuple(kind for kind in FailureKind if not kind.absorbable)
XFAILS = "xfails.toml"
SKIPS = "skips.toml"
#: the longest drafted reason (a cause is one line; a requirement may have a few)
_REASON_LIMIT = 600


@dataclass
class Draft:
    """One drafted table: a requirement's examples, each with its reason."""

    requirement: RequirementRecord
    #: example number -> its reason: the cause measured, or the reason it was declared with
    examples: dict[int, str] = field(default_factory=dict)
    #: how each failed example failed, for the table's comment
    kinds: dict[int, FailureKind] = field(default_factory=dict)

    def reason(self) -> str:
        """``TO CONFIRM: ...``: each distinct reason once, with the examples it is of."""
        by_reason: dict[str, list[int]] = {}
        for number, reason in sorted(self.examples.items()):
            by_reason.setdefault(reason, []).append(number)
        if len(by_reason) == 1:
            text = next(iter(by_reason))
        else:
            text = "; ".join(
                f"example{'s' * (len(numbers) > 1)} {', '.join(map(str, numbers))}: {reason}"
                for reason, numbers in by_reason.items()
            )
        text = TO_CONFIRM + text
        return text if len(text) <= _REASON_LIMIT else text[: _REASON_LIMIT - 3] + "..."


def _declared(requirement: RequirementRecord, record: ExampleRecord, file: str) -> str | None:
    """The reason an example was already declared with, if the run counted it so."""
    if file == XFAILS and record.outcome == "xfailed":
        return record.message.removeprefix(f"{requirement.id} example {record.example}: ")
    return requirement.declared_skip(record) if file == SKIPS else None


def drafts(report: RunReport) -> dict[str, list[Draft]]:
    """Per file (XFAILS, SKIPS), the drafted tables, in the spec's order."""
    result: dict[str, list[Draft]] = {XFAILS: [], SKIPS: []}
    for requirement in report.requirements:
        for file in (XFAILS, SKIPS):
            draft = Draft(requirement)
            for record in requirement.results:
                kind = FailureKind(record.kind or FailureKind.ERROR)
                if record.outcome == "failed" and (kind in SKIP_KINDS) == (file == SKIPS):
                    draft.examples[record.example] = record.cause or f"failed ({kind})"
                    draft.kinds[record.example] = kind
            if not draft.examples:
                continue
            for record in requirement.results:
                declared = _declared(requirement, record, file)
                if declared is not None and record.example not in draft.examples:
                    draft.examples[record.example] = declared
            result[file].append(draft)
    return result


def _header(report: RunReport, file: str, source: str) -> list[str]:
    what = (
        "Expected failures"
        if file == XFAILS
        else "Examples not to run (they timed out, hung or crashed, or their group's setup "
        "or cleanup failed: no expected failure absorbs that)"
    )
    text = (
        f"{what} of {report.implementation} {report.implementation_version}, drafted by "
        f"`forkwait-conformance triage {source} --write-expectations` from its run of "
        f"{report.created}: one table per failing requirement, the examples that failed, "
        f'and the cause measured. Each reason starts "{TO_CONFIRM.strip()}": check it, say '
        "why the engine behaves so (the matrix shows this text), and drop the marker. An "
        "entry here replaces the adapter's own entry for its requirement, so it also names "
        "the examples the run already counted as declared. The format: the spec's page "
        "'Validating your implementation', section 'Levels, expected failures and skips'."
    )
    return textwrap.wrap(
        text, width=92, initial_indent="# ", subsequent_indent="# ", break_on_hyphens=False
    )


def _table(draft: Draft, file: str) -> list[str]:
    failed = ", ".join(f"{n} ({kind})" for n, kind in sorted(draft.kinds.items()))
    return [
        "",
        f"[{json.dumps(draft.requirement.id)}]",
        f"# {draft.requirement.level}; failed: example{'s' * (len(draft.kinds) > 1)} {failed}",
        f"reason = {json.dumps(draft.reason(), ensure_ascii=False)}",
        f"examples = [{', '.join(map(str, sorted(draft.examples)))}]",
    ]


def render(report: RunReport, file: str, tables: Iterable[Draft], source: str) -> str:
    """The file's text; checked by reading it back (a TOML basic string is a JSON string)."""
    tables = list(tables)
    lines = _header(report, file, source)
    for draft in tables:
        lines += _table(draft, file)
    text = "\n".join(lines) + "\n"
    read = tomllib.loads(text)
    assert list(read) == [d.requirement.id for d in tables], "a drafted table did not read back"
    return text


class DraftError(ValueError):
    """The drafted files cannot be written where asked."""


def write_drafts(
    report: RunReport, folder: Path, source: str, *, overwrite: bool = False
) -> dict[Path, int]:
    """Write ``folder``/xfails.toml and skips.toml; how many tables each has. Refuses to
    replace an existing file unless ``overwrite``: it may hold an author's confirmed reasons."""
    paths = {file: folder / file for file in (XFAILS, SKIPS)}
    existing = [str(path) for path in paths.values() if path.exists() or path.is_symlink()]
    if existing and not overwrite:
        raise DraftError(
            f"{' and '.join(existing)} already exist{'s' * (len(existing) == 1)}: "
            "--overwrite replaces them (their reasons may be confirmed ones), or choose "
            "another folder"
        )
    partly = incompleteness(report)
    if partly is not None:
        raise DraftError(
            f"{source}: {partly}; drafts from it would leave out the failures of what did "
            "not run: draft from the report of a whole run"
        )
    tables = drafts(report)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for file, path in paths.items():
            if path.exists() and not path.is_file():
                raise DraftError(f"{path} is not a regular file")
            path.write_text(render(report, file, tables[file], source), encoding="utf-8")
    except OSError as exc:
        raise DraftError(f"cannot write into {folder}: {exc.strerror or exc}") from exc
    return {paths[file]: len(tables[file]) for file in (XFAILS, SKIPS)}


__all__ = [
    "SKIPS",
    "SKIP_KINDS",
    "TO_CONFIRM",
    "XFAILS",
    "Draft",
    "DraftError",
    "drafts",
    "write_drafts",
]
