"""What the terminal says at the end of a run: failures by cause, the table, the verdict.

Text only: reporter.py decides the verdict and the exit status and writes the
report; this writes them for a reader, then where to look next (the report,
the failed rules' pages, what the run left out, the spec as HTML). The
failures by cause (reports/triage.py) come first and are bounded, unless
``-v``: the blocks above them have every detail, and ``forkwait-conformance
triage REPORT.json`` gives every line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from conformance.catalog.requirements import Requirement
from conformance.catalog.vocabulary import PROFILES
from conformance.reports.json_report import RunReport
from conformance.reports.report_path import REPORT_NOT_WRITTEN
from conformance.reports.results import PARTLY_CHECKED, RunResults, render_table
from conformance.reports.triage import render as triage_lines
from conformance.reports.verdict import Verdict
from conformance.run.spec_html import is_built, rule_link
from conformance.run.spec_items import RunOptions

#: failed requirements the notes link to, at most
_LINKS = 5
#: the section of the spec's pages that explains the table, the verdict and the reports
_READING = "validating.html#reports"
#: causes, and failures of each cause, the triage shows (all of them with -v)
_CAUSES_SHOWN = 8
_FAILURES_SHOWN = 3


@dataclass(frozen=True)
class Summary:
    """Everything the end of a run says rests on."""

    report: RunReport
    verdict: Verdict
    results: RunResults
    catalog: Mapping[str, Requirement]
    options: RunOptions
    #: --report as given (None: none asked), and why it could not be written
    report_shown: str | None
    report_error: str | None
    spec_warnings: str
    #: --schedules as asked (an adapter without an explorer runs none)
    schedules_asked: int
    #: -v: the triage whole
    verbose: bool

    def write(self, terminal: pytest.TerminalReporter) -> None:
        self._triage(terminal)
        verdict = self.verdict
        adapter = self.options.adapter
        write = terminal.write_line
        terminal.section(f"forkwait conformance: {adapter.name} {adapter.version}")
        if verdict.partial:
            write(f"{verdict.partial_words()}: the table and the verdict count what ran", bold=True)
        table = self.results.by_profile(ran_only=verdict.partial)
        for line in render_table(table, PROFILES):
            write(line)
        write("")
        for line in verdict.lines():
            failed = line.startswith(("MUST:", "examples:")) and " failed" in line
            write(line, red=failed or (line.startswith("verdict:") and not verdict.passed))
        for reason in verdict.failing:
            write(f"the run fails: {reason}", red=True)
        if self.spec_warnings:
            write("Sphinx warned about the spec's documents:", red=True)
            for line in self.spec_warnings.splitlines():
                write(f"  {line}", red=True)
        for line in self._notes():
            write(line, red=line.startswith("the report was NOT written"))

    def _triage(self, terminal: pytest.TerminalReporter) -> None:
        """The failures grouped by cause, bounded unless -v; nothing if none failed."""
        if self.verbose:
            lines = triage_lines(self.report)
        else:
            lines = triage_lines(self.report, most_groups=_CAUSES_SHOWN, most_lines=_FAILURES_SHOWN)
        if len(lines) < 2:
            return
        terminal.section("failures by cause")
        for line in lines:
            terminal.write_line(line)
        command = (
            f"forkwait-conformance triage {self.report_shown}"
            if self.report_shown
            else "--report out.json, then forkwait-conformance triage out.json"
        )
        terminal.write_line("")
        if not self.verbose:
            terminal.write_line(f"every failure, one line each: -v, or {command}")
        terminal.write_line("each failure's whole text is above (--tb=no leaves them out)")
        terminal.write_line(
            f"expected failures and skips drafted from them: {command} --write-expectations DIR"
        )

    def _notes(self) -> list[str]:
        """Where to look next: the report, the failed rules' pages, what was left out."""
        notes = []
        if self.report_error is not None:
            notes.append(
                f"the report was NOT written to {self.report_shown}: {self.report_error} "
                f"(exit status {REPORT_NOT_WRITTEN})"
            )
        elif self.report_shown is not None:
            notes.append(f"every result: {self.report_shown}")
        else:
            notes.append("every result as JSON: add --report out.json")
        failed = [
            req_id
            for level in ("MUST", "SHOULD", "MAY")
            for req_id in self.results.with_outcome("failed", level)
        ]
        docs_url = self.options.docs_url
        for req_id in failed[:_LINKS]:
            requirement = self.catalog[req_id]
            url = rule_link(docs_url, requirement.docname, req_id)
            notes.append(f"the rule {req_id} failed ({requirement.level}): {url}")
        if len(failed) > _LINKS:
            notes.append(f"... and {len(failed) - _LINKS} more failed requirements (above)")
        return notes + self._checked_in_part() + self._left_out() + self._read_on(docs_url)

    def _checked_in_part(self) -> list[str]:
        """The requirements that passed what ran, some of their examples skipped as declared
        (the report gives each one's reason): they are not among the passed."""
        partly = [r for r in self.report.requirements if r.outcome == PARTLY_CHECKED]
        if not partly:
            return []
        shown = ", ".join(f"{r.id} ({r.in_part()})" for r in partly[:_LINKS])
        more = f", and {len(partly) - _LINKS} more" if len(partly) > _LINKS else ""
        return [f"checked in part (examples skipped as declared): {shown}{more}"]

    @staticmethod
    def _read_on(docs_url: str) -> list[str]:
        """Where to read on, passing or not: the spec as HTML, and the page on results."""
        built = "" if not docs_url.startswith("file:") or is_built() else " (not built yet)"
        notes = [f"the spec as HTML{built}: forkwait-conformance spec --open"]
        if docs_url:
            notes.append(f"how to read these results: {docs_url}{_READING}")
        return notes

    def _left_out(self) -> list[str]:
        """Why a run has fewer examples than another: unclaimed profiles, no explorer."""
        if self.verdict.partial:
            return []
        adapter = self.options.adapter
        notes = []
        unclaimed = [p for p in PROFILES if p not in adapter.profiles]
        if unclaimed:
            notes.append(
                f"not judged: profiles {', '.join(unclaimed)} (not claimed by "
                f"{adapter.name}; their examples are skipped)"
            )
        explored = [
            r.id for r in self.catalog.values() if r.explore and r.profile in adapter.profiles
        ]
        if explored and not self.options.schedules:
            if self.options.explores:
                why = "--schedules 0"
            else:
                runs = sum(len(self.results.of(req_id)) for req_id in explored)
                count = self.schedules_asked
                why = (
                    f"{adapter.name} gives no explorer (adapter.explorer; with one, "
                    f"--schedules {count} would add {runs * count} runs)"
                )
            notes.append(
                f"the examples of {len(explored)} :explore: requirements ran once each, not "
                f"also under controlled schedules: {why}"
            )
        return notes


__all__ = ["Summary"]
