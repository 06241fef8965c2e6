"""What a conformance run is to do, decided from its command line before anything runs.

Every check that can fail on bad input happens here, up front, and raises one
of the errors ``conformance.run.plugin`` turns into a usage error: a bad option
value, a report path that cannot be written, a spec whose structure is broken,
an implementation that cannot be loaded, an expected-failures or skips file
that names what the spec lacks, a ``-k`` naming no requirement.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from conformance.adapter import Adapter, AdapterError
from conformance.catalog.expectations import check_known, load_entries
from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.catalog.requirements import (
    CatalogError,
    Requirement,
    catalog_of,
    is_example,
    walk_document,
)
from conformance.executor.describe import adapter_from
from conformance.programs.seed import SEED_ENV
from conformance.reports.json_report import ReportError
from conformance.reports.readable import NotRegular, check_regular
from conformance.reports.report_path import claim, run_inputs
from conformance.run.implementation import impl_name
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
    #: what the adapter check found (conformance/executor/describe.py)
    problems: list[str] = field(default_factory=list)


def claim_report(config: pytest.Config) -> None:
    """Check first that ``--report`` can be written without harming a file of the user's
    or an input of the run, and remove an earlier run's report there: a run stopped by
    bad input then leaves none, rather than a stale one (reports/report_path.py)."""
    report = config.getoption("report")
    if report and not hasattr(config, "workerinput"):
        named = {
            "--xfails-file": config.getoption("xfails_file"),
            "--skips-file": config.getoption("skips_file"),
            "the JUnit file (--junitxml)": getattr(config.option, "xmlpath", None),
        }
        root = Path(config.getoption("spec_root") or spec_dir())
        claim(config.invocation_params.dir / report, run_inputs(root, named))


def spec_location(config: pytest.Config) -> SpecLocation:
    """``--spec-root`` (with its own conf.py, or the spec's) or the installed spec."""
    root = Path(config.getoption("spec_root") or spec_dir()).resolve()
    if not root.is_dir():
        raise CatalogError(f"--spec-root {root} is not a folder")
    _check_links(root)
    conf = root if (root / "conf.py").is_file() else spec_conf_dir()
    return SpecLocation(root, SphinxSource(conf, _root_doc(root)))


def _check_links(root: Path) -> None:
    """A document that is a symbolic link to nothing (or to itself) is one Sphinx skips
    with a warning, its rules missing from the run: refused up front, by name."""
    for path in sorted(root.rglob("*.rst")):
        if path.is_symlink() and not path.is_file():
            raise CatalogError(
                f"{path} is a symbolic link to {os.readlink(path)}, which is no file (the "
                "target is gone, or the link leads back to itself): fix or remove it"
            )


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
    """Refuse the xdist modes under which one example would not run once, in order.

    ``-n 0`` and ``-n N`` are both safe: examples run in executor processes
    (conformance/executor/).
    """
    if hasattr(config, "workerinput"):
        return
    dist = config.getoption("dist", "no")
    if dist == "no" or not config.getoption("tx", None):
        return
    if dist not in SURVIVING_DIST:
        why = _UNSURVIVABLE.get(dist, "a crashing example would not fail alone")
        raise ReportError(
            f"--dist {dist}: {why}; use --dist {', '.join(SURVIVING_DIST)} (each keeps a "
            "document's examples on one worker, and a crash fails its own example only)"
        )


#: impl name, number of schedules, --schedule -> the adapter described as data
Describe = Callable[[str, int, "str | None"], dict[str, Any]]


def configure_run(config: pytest.Config, location: SpecLocation, describe: Describe) -> RunSetup:
    """Check the command line and load what the run needs, before anything runs."""
    check_distribution(config)
    # option values are checked as they are parsed (option_values.py)
    schedules: int = config.getoption("schedules")
    probe_seed: int | None = config.getoption("probe_seed")
    if probe_seed is not None:  # read where the generated-program probes run, which inherit it
        os.environ[SEED_ENV] = str(probe_seed)
    project = location.project(config)
    catalog = catalog_of(project)
    counts = example_counts(project, catalog)  # also checks the spec's structure
    _check_selection(config, catalog)
    name = impl_name(config.getoption("impl"))
    data = describe(name, schedules, config.getoption("schedule") or None)
    adapter = _with_files(config, _one_line_names(adapter_from(data)), counts)
    options = RunOptions(
        adapter=adapter,
        schedules=tuple(data["schedules"]),
        strict=config.getoption("strict_levels"),
        quick=bool(config.getoption("quick")),
        docs_url=config.getoption("docs_url") or default_docs_url(location.root),
        explores=bool(data["explorer"]),
        impl=name,
        spec_root=str(location.root) if config.getoption("spec_root") else "",
    )
    return RunSetup(options, project, catalog, list(data["problems"]))


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


def _one_line_names(adapter: Adapter) -> Adapter:
    """An adapter's name and version head the verdict and the report's lines: a newline
    or control character in them could forge a line scripts read (``MUST: 82/82 passed``)."""
    for what, value in (("name", adapter.name), ("version", adapter.version)):
        if not value.isprintable():
            raise AdapterError(
                f"adapter {what} {value!r} has a newline or control character: it is "
                "printed in the verdict's lines, so it must be one line of printable text"
            )
    return adapter


def _regular_file(option: str, path: str) -> Path:
    """A list file is read by the controller and again by every worker: a pipe or FIFO
    (``<(...)``) would give its text once, or hang."""
    found = Path(path)
    try:
        check_regular(found)
    except NotRegular as exc:
        raise ReportError(f"--{option.replace('_', '-')} {exc}") from exc
    return found


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
            extra = load_entries(_regular_file(option, path), what)
            check_known(extra, counts, path)
            entries.update(extra)
    return replace(adapter, expected_failures=xfails, skips=skips)
