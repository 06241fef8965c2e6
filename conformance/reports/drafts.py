"""Expected-failures and skips files drafted from a report, for the author to confirm.

What ``wpt update-expectations`` does from a run's log: each failing
requirement gets one table, naming the examples that failed and, as the draft
reason, the cause measured (``TO CONFIRM: TypeError: ...``). A failure an
expected-failure entry can absorb (wrong output, an exception) goes to
``xfails.toml``; one it cannot (a timeout, hang or crash, which would cost
the deadline every run; a group setup or cleanup that failed) goes to
``skips.toml``, whose examples are not run. An entry given on the command line
replaces the adapter's own entry for its requirement, so a redraft keeps every
example the run counted as declared (xfailed, a flaky one that passed, or skipped
by a list), with its reason, also in a requirement with no new failure: the
files drafted from a run with declarations declare all it did.

Not drafted: a failure the adapter's own code raised (an adapter error, fixed
in the adapter), and a cascade's victims (cascades.py): the example that broke
the engine for them is drafted as a skip instead, with what it did. The format
is conformance/catalog/expectations.py's; the text is checked by reading it
back with the suite's own loader.
"""

from __future__ import annotations

import json
import textwrap
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.catalog.expectations import TO_CONFIRM, unconfirmed
from conformance.reports.cascades import cascades, victims
from conformance.reports.json_report import ExampleRecord, RequirementRecord, RunReport
from conformance.reports.triage import incompleteness
from conformance.sphinx_doctest.outcome import FailureKind

#: failures no expected-failure entry absorbs: their examples are drafted as skips
SKIP_KINDS = tuple(kind for kind in FailureKind if not kind.absorbable)
XFAILS = "xfails.toml"
SKIPS = "skips.toml"
#: the longest drafted reason (a cause is one line; a requirement may have a few)
_REASON_LIMIT = 600


#: what a cascade's start is drafted with (a skip: it must not run)
BREAKS = "breaks the engine"


@dataclass
class Draft:
    """One drafted table: a requirement's examples, each with its reason."""

    requirement: RequirementRecord
    #: example number -> its reason: TO_CONFIRM and the cause measured, or the reason it
    #: was declared with
    examples: dict[int, str] = field(default_factory=dict)
    #: how each failed example failed (a FailureKind's value, or BREAKS), for the comment
    kinds: dict[int, str] = field(default_factory=dict)
    #: one of its declared examples was declared flaky: the entry stays so
    flaky: bool = False

    def reason(self) -> str:
        """Each distinct reason once, with the examples it is of; ``TO CONFIRM: `` first
        while any of them is still a draft's."""
        drafted = any(unconfirmed(reason) for reason in self.examples.values())
        by_reason: dict[str, list[int]] = {}
        for number, reason in sorted(self.examples.items()):
            plain = " ".join(reason.split()).removeprefix(TO_CONFIRM.strip()).strip()
            by_reason.setdefault(plain, []).append(number)
        if len(by_reason) == 1:
            text = next(iter(by_reason))
        else:
            text = "; ".join(
                f"example{'s' * (len(numbers) > 1)} {', '.join(map(str, numbers))}: {reason}"
                for reason, numbers in by_reason.items()
            )
        text = (TO_CONFIRM if drafted else "") + text
        return text if len(text) <= _REASON_LIMIT else text[: _REASON_LIMIT - 3] + "..."


def _declared(requirement: RequirementRecord, record: ExampleRecord, file: str) -> str | None:
    """The reason an example was already declared with in ``file``, if the run counted it so."""
    declared = requirement.declared(record)
    in_skips = record.outcome == "skipped"
    return declared if declared is not None and in_skips == (file == SKIPS) else None


def drafts(report: RunReport) -> dict[str, list[Draft]]:
    """Per file (XFAILS, SKIPS), the drafted tables, in the spec's order."""
    chains = cascades(report)
    left_out = victims(chains)
    starts = {c.start.record.nodeid: c for c in chains}
    result: dict[str, list[Draft]] = {XFAILS: [], SKIPS: []}
    for requirement in report.requirements:
        for file in (XFAILS, SKIPS):
            draft = Draft(requirement)
            for record in requirement.results:
                cascade = starts.get(record.nodeid)
                if cascade is not None:
                    if file == SKIPS:
                        said = f"{BREAKS}: {cascade.summary()}: {cascade.cause()}"
                        draft.examples[record.example] = TO_CONFIRM + said
                        draft.kinds[record.example] = BREAKS
                    continue
                if record.nodeid in left_out or record.adapter_error:
                    continue
                kind = FailureKind(record.kind or FailureKind.ERROR)
                if record.outcome == "failed" and (kind in SKIP_KINDS) == (file == SKIPS):
                    draft.examples[record.example] = TO_CONFIRM + (
                        record.cause or f"failed ({kind})"
                    )
                    draft.kinds[record.example] = kind.value
            for record in requirement.results:
                declared = _declared(requirement, record, file)
                if declared is None or record.nodeid in starts:
                    continue
                draft.examples.setdefault(record.example, declared)
                draft.flaky = draft.flaky or record.flaky
            if draft.examples:
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
        f'and the cause measured. A drafted reason starts "{TO_CONFIRM.strip()}": check it, '
        "say why the engine behaves so (`forkwait-conformance matrix` shows this text), and "
        "drop the marker; until then the run counts it, and --strict fails on it. An entry "
        "here replaces the adapter's own entry for its requirement, so it also names the "
        "examples the run already counted as declared. An example whose outcome depends "
        "on timing: add `flaky = true` to its expected failure. Not drafted: failures the "
        "adapter's own code raised (fix the adapter), and the examples a cascade failed "
        "(the example that broke the engine is a skip instead). The format: the spec's "
        "page 'Validating your implementation', section 'Levels, expected failures and "
        "skips'."
    )
    return textwrap.wrap(
        text, width=92, initial_indent="# ", subsequent_indent="# ", break_on_hyphens=False
    )


def _table(draft: Draft, file: str) -> list[str]:
    failed = {n: kind for n, kind in draft.kinds.items() if kind != BREAKS}
    broke = sorted(set(draft.kinds) - set(failed))
    kept = sorted(set(draft.examples) - set(draft.kinds))
    said = []
    if failed:
        which = ", ".join(f"{n} ({kind})" for n, kind in sorted(failed.items()))
        said.append(f"failed: example{'s' * (len(failed) > 1)} {which}")
    if broke:
        said.append(
            f"{BREAKS} for later examples: example{'s' * (len(broke) > 1)} {_numbers(broke)}"
        )
    if kept:
        said.append(f"declared in the run: example{'s' * (len(kept) > 1)} {_numbers(kept)}")
    lines = [
        "",
        f"[{json.dumps(draft.requirement.id)}]",
        f"# {draft.requirement.level}; {'; '.join(said)}",
        f"reason = {json.dumps(draft.reason(), ensure_ascii=False)}",
        f"examples = [{', '.join(map(str, sorted(draft.examples)))}]",
    ]
    return lines + (["flaky = true"] if draft.flaky else [])


def _numbers(numbers: Iterable[int]) -> str:
    return ", ".join(map(str, numbers))


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
    "BREAKS",
    "SKIPS",
    "SKIP_KINDS",
    "TO_CONFIRM",
    "XFAILS",
    "Draft",
    "DraftError",
    "drafts",
    "write_drafts",
]
