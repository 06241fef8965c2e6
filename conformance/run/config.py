"""What a conformance run is to do, decided from its command line before anything runs.

Every check that can fail on bad input happens here, up front, and raises one
of the errors ``conformance.run.plugin`` turns into a usage error: a bad option
value, a report path that cannot be written, a spec whose structure is broken,
an implementation that cannot be loaded, an expected-failures or skips file
that names what the spec lacks, a ``-k`` naming no requirement.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from conformance.adapter import Adapter, AdapterError, load_adapter
from conformance.catalog.expectations import check_known, load_entries
from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.catalog.requirements import (
    CatalogError,
    Requirement,
    catalog_of,
    is_example,
    walk_document,
)
from conformance.programs.seed import SEED_ENV
from conformance.reports.json_report import ReportError, check_writable
from conformance.run.implementation import DEFAULT_IMPL, ENV_IMPL
from conformance.run.spec_html import default_docs_url
from conformance.run.spec_items import RunOptions
from conformance.sphinx_doctest.cache import cache_root
from conformance.sphinx_doctest.project import SphinxProject, SphinxSource, read_project

#: --dist modes under which a crash costs one example (sphinx_doctest/scheduling.py)
SURVIVING_DIST = ("load", "loadfile", "loadscope", "loadgroup")
#: why the other modes are refused
_UNSURVIVABLE = {
    "each": "it runs every example on every worker, so one crash is counted once per worker",
    "worksteal": "when a worker crashes, xdist's work stealing blames another example",
}
#: ini option (forkwait-conformance sets it): examples must run in worker processes
REQUIRE_WORKERS_INI = "forkwait_require_workers"

#: a word of a -k expression that looks like a requirement ID (FORK-CALLS-1, FORK-CALLS)
_REQUIREMENT_LIKE = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")


@dataclass(frozen=True)
class SpecLocation:
    """The spec folder a run reads, and how Sphinx is to read it."""

    root: Path
    source: SphinxSource

    def project(self, config: pytest.Config) -> SphinxProject:
        return read_project(self.root, self.source, cache_root(config))


@dataclass(frozen=True)
class RunSetup:
    options: RunOptions
    project: SphinxProject
    catalog: Mapping[str, Requirement]


def claim_report(config: pytest.Config) -> None:
    """Check first that ``--report`` can be written, and remove an earlier run's report
    there: a run stopped by bad input then leaves none, rather than a stale one."""
    report = config.getoption("report")
    if report and not hasattr(config, "workerinput"):
        check_writable(Path(report))


def spec_location(config: pytest.Config) -> SpecLocation:
    """``--spec-root`` (with its own conf.py, or the spec's) or the installed spec."""
    root = Path(config.getoption("spec_root") or spec_dir()).resolve()
    if not root.is_dir():
        raise CatalogError(f"--spec-root {root} is not a folder")
    conf = root if (root / "conf.py").is_file() else spec_conf_dir()
    return SpecLocation(root, SphinxSource(conf, _root_doc(root)))


def _root_doc(srcdir: Path) -> tuple[tuple[str, str], ...]:
    """A spec folder need not have an index.rst: then any of its documents is the root."""
    if (srcdir / "index.rst").is_file():
        return ()
    first = min(srcdir.glob("*.rst"), default=None)
    return () if first is None else (("root_doc", first.stem),)


def in_scope(config: pytest.Config, root: Path) -> bool:
    """Will this run collect spec documents (is the spec, or a part of it, an argument)?"""
    bases = {config.invocation_params.dir, config.rootpath}
    for arg in config.args:
        for base in bases:
            path = (base / arg.split("::")[0]).resolve()
            if path.exists() and (path.is_relative_to(root) or root.is_relative_to(path)):
                return True
    return False


def check_not_another_spec(config: pytest.Config, root: Path) -> None:
    """A folder of spec documents that is not the spec this suite runs would silently
    collect nothing (e.g. a checkout's docs/ next to an installed, non-editable suite)."""
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_dir() and any(
            ".. requirement::" in doc.read_text(encoding="utf-8", errors="replace")
            for doc in path.glob("*.rst")
        ):
            raise CatalogError(
                f"{path} holds spec documents, but this suite runs the spec in {root}; "
                f"to run those documents, add --spec-root {path} (or install the suite "
                "from this checkout with pip install -e)"
            )


def check_distribution(config: pytest.Config) -> None:
    """Refuse the xdist modes under which one crash would not cost one example only."""
    if hasattr(config, "workerinput"):
        return
    dist = config.getoption("dist", "no")
    if dist == "no" or not config.getoption("tx", None):
        if config.getini(REQUIRE_WORKERS_INI):
            raise ReportError(
                "-n 0 (or no pytest-xdist) runs every example in this process, where one "
                "crash or wedge ends the whole run and loses every verdict: give -n 1 (the "
                "default) or more. To run in-process all the same (to debug an example, or "
                f"for an implementation that cannot crash), add -o {REQUIRE_WORKERS_INI}=false"
            )
        return
    if dist not in SURVIVING_DIST:
        why = _UNSURVIVABLE.get(dist, "a crashing example would not fail alone")
        raise ReportError(
            f"--dist {dist}: {why}; use --dist {', '.join(SURVIVING_DIST)} (each keeps a "
            "document's examples on one worker, and a crash fails its own example only)"
        )


def configure_run(config: pytest.Config, location: SpecLocation) -> RunSetup:
    """Check the command line and load what the run needs, before anything runs."""
    check_distribution(config)
    timeout: float = config.getoption("example_timeout")
    if not math.isfinite(timeout) or timeout < 0:
        raise ReportError(
            f"--example-timeout must be a finite number of seconds >= 0, got {timeout}"
        )
    schedules: int = config.getoption("schedules")
    if schedules < 0:
        raise ReportError(f"--schedules must be 0 or more, got {schedules}")
    probe_seed: int | None = config.getoption("probe_seed")
    if probe_seed is not None:  # read where the generated-program probes run, which inherit it
        os.environ[SEED_ENV] = str(probe_seed)
    project = location.project(config)
    catalog = catalog_of(project)
    counts = example_counts(project, catalog)  # also checks the spec's structure
    _check_selection(config, catalog)
    name = config.getoption("impl") or os.environ.get(ENV_IMPL) or DEFAULT_IMPL
    adapter = _with_files(config, load_adapter(name, deadline=timeout), counts)
    options = RunOptions(
        adapter=adapter,
        schedules=tuple(_schedules(config, adapter, schedules)),
        strict=config.getoption("strict_levels"),
        quick=bool(config.getoption("quick")),
        docs_url=config.getoption("docs_url") or default_docs_url(location.root),
    )
    return RunSetup(options, project, catalog)


def example_counts(project: SphinxProject, catalog: Mapping[str, Requirement]) -> dict[str, int]:
    """Requirement ID -> number of examples; raises CatalogError on a broken structure."""
    counts = dict.fromkeys(catalog, 0)
    for docname in project.docnames():
        for node, requirement in walk_document(project, docname):
            if requirement is not None and is_example(node):
                counts[requirement.id] += 1
    return counts


def _check_selection(config: pytest.Config, catalog: Mapping[str, Requirement]) -> None:
    """A -k naming a requirement the spec lacks would select nothing, silently."""
    expression = config.getoption("keyword") or ""
    for word in sorted(set(_REQUIREMENT_LIKE.findall(expression))):
        if not any(word in req_id for req_id in catalog):
            close = difflib.get_close_matches(word, list(catalog), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise CatalogError(f"-k {expression!r}: the spec has no requirement {word}{hint}")


def _with_files(config: pytest.Config, adapter: Adapter, counts: dict[str, int]) -> Adapter:
    """The adapter's own expected failures and skips, plus those of the files given."""
    xfails, skips = adapter.xfail_entries, adapter.skip_entries
    check_known(xfails, counts, f"adapter {adapter.name!r} expected failures")
    check_known(skips, counts, f"adapter {adapter.name!r} skips")
    for option, entries, what in (
        ("xfails_file", xfails, "expected-failures"),
        ("skips_file", skips, "skips"),
    ):
        path = config.getoption(option)
        if path:
            extra = load_entries(Path(path), what)
            check_known(extra, counts, path)
            entries.update(extra)
    return replace(adapter, expected_failures=xfails, skips=skips)


def _schedules(config: pytest.Config, adapter: Adapter, count: int) -> list[str]:
    replay = config.getoption("schedule")
    explorer = adapter.explorer
    if replay and explorer is None:
        raise AdapterError(f"--schedule: implementation {adapter.name!r} cannot run schedules")
    if explorer is None:
        return []
    if replay:
        try:
            with explorer.use(replay):
                pass
        except Exception as exc:
            raise AdapterError(f"--schedule {replay!r}: {exc}") from exc
        return [replay]
    names = list(explorer.schedules(count))
    distinct = dict.fromkeys(names)
    if len(distinct) != count or not all(isinstance(n, str) and n.strip() for n in names):
        # honoured or refused: a run must never explore fewer schedules than it says
        raise AdapterError(
            f"--schedules {count}: the explorer of implementation {adapter.name!r} gave "
            f"{len(distinct)} distinct schedule names ({', '.join(map(repr, names[:5]))}"
            f"{', ...' if len(names) > 5 else ''}), not {count}; ask for at most what it "
            "can give, or fix its schedules()"
        )
    return names
