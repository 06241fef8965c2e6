"""Per document, does each doctest runner agree with ``sphinx-build -b doctest``?

On the fixture projects (tests/sphinx_doctest/projects), each document's
verdict - Sphinx ran tests there and all passed, or some failed (a test, a
setup or a cleanup), or Sphinx ran nothing there - is taken from the
``output.txt`` of ``sphinx-build -b doctest -E``, and compared with what each
runner makes of the same document:

- this engine (``pytest -p conformance.sphinx_doctest``),
- pytest-sphinx (its plugin alone, given every ``.rst`` file),
- pytest-doctestplus (``--doctest-plus --doctest-rst``, every ``.rst`` file),
- stock sybil (a conftest with sybil's ``DocTestParser`` and ``SkipParser``).

A runner *agrees* on a document if it ran tests there exactly when Sphinx
did, with the same verdict; it *collects nothing* where Sphinx ran tests and
it found none; otherwise it *disagrees*. A runner that is not installed is
left out of the table (CI installs the peers in a throwaway venv). Each runs
as a separate process with plugin autoloading off, so that one runner's
plugin never collects for another.

Run: ``python benchmarks/peers.py [--details]`` from the repository root.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROJECTS = REPO / "tests" / "sphinx_doctest" / "projects"
#: project -> (source folder, conf.py folder), relative to the project
LAYOUT = {"separate_conf": ("src", "conf")}
TIMEOUT = 300
PASSED, FAILED, NOTHING = "passed", "failed", "nothing"
_OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|XPASS|XFAIL) (\S+?\.rst)(?:::|\s|$)")
_DOCUMENT = re.compile(r"^Document: (.+)\n-+\n", re.MULTILINE)
SYBIL_CONFTEST = """\
from sybil import Sybil
from sybil.parsers.rest import DocTestParser, SkipParser

pytest_collect_file = Sybil(parsers=[DocTestParser(), SkipParser()], patterns=["*.rst"]).pytest()
"""


@dataclass(frozen=True)
class Copy:
    """A fresh copy of one fixture project: where its sources and conf.py are."""

    source: Path
    confdir: Path

    def documents(self) -> list[Path]:
        return sorted(self.source.rglob("*.rst"))


def sphinx_verdicts(copy: Copy, out: Path) -> dict[str, str]:
    """docname -> passed / failed, for every document Sphinx ran tests in."""
    # every document gets its section in output.txt, whatever conf.py says
    command = [sys.executable, "-m", "sphinx", "-b", "doctest", "-E", "-q"]
    command += ["-D", "doctest_show_successes=1"]
    command += ["-c", str(copy.confdir), str(copy.source), str(out)]
    subprocess.run(command, capture_output=True, check=False, timeout=TIMEOUT)
    text = (out / "output.txt").read_text(encoding="utf-8")
    parts = _DOCUMENT.split(text)[1:]  # [name, body, name, body, ...]
    return {
        name: FAILED if "***Test Failed***" in body else PASSED
        for name, body in zip(parts[::2], parts[1::2], strict=True)
    }


def engine(copy: Copy) -> list[str]:
    conf = [] if copy.confdir == copy.source else ["--sphinx-confdir", str(copy.confdir)]
    return ["-p", "conformance.sphinx_doctest", *conf, str(copy.source)]


def unpackaged(copy: Copy) -> list[str]:
    """The project's documents, as files outside Python packages.

    The fixture folders are packages of this repository's tests (``__init__.py``);
    a peer given the documents would collect those ``__init__.py`` modules too
    (pytest-sphinx then fails on every package for want of pytest's doctest
    options). A Sphinx project is no package: these files go, for the peers.
    """
    for marker in copy.source.rglob("__init__.py"):
        if any(marker.parent.glob("*.rst")):
            marker.unlink()
    return [str(path) for path in copy.documents()]


def pytest_sphinx(copy: Copy) -> list[str]:
    """Its own collector only (pytest's doctest plugin would collect the named files
    too); peers_shim.py gives it the doctest plugin's options it reads."""
    plugins = ["-p", "pytest_sphinx", "-p", "no:doctest", "-p", "peers_shim"]
    return [*plugins, *unpackaged(copy)]


def doctestplus(copy: Copy) -> list[str]:
    plugin = ["-p", "pytest_doctestplus.plugin", "--doctest-plus", "--doctest-rst"]
    return [*plugin, *unpackaged(copy)]


def stock_sybil(copy: Copy) -> list[str]:
    (copy.source / "conftest.py").write_text(SYBIL_CONFTEST, encoding="utf-8")
    return ["-p", "no:doctest", *unpackaged(copy)]


@dataclass(frozen=True)
class Runner:
    name: str
    module: str  # importable iff the runner is installed
    arguments: Callable[[Copy], list[str]]


RUNNERS = [
    Runner("this engine (conformance.sphinx_doctest)", "sybil", engine),
    Runner("pytest-sphinx", "pytest_sphinx", pytest_sphinx),
    Runner("pytest-doctestplus", "pytest_doctestplus", doctestplus),
    Runner("sybil (DocTestParser + SkipParser)", "sybil", stock_sybil),
]


def runner_verdicts(runner: Runner, copy: Copy) -> dict[str, str]:
    """docname -> passed / failed, for every document the runner ran tests in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    paths = [str(REPO), str(REPO / "benchmarks"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    command = [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider"]
    command += ["--continue-on-collection-errors"]  # a document it cannot read fails alone
    command += ["--rootdir", str(copy.source), *runner.arguments(copy)]
    done = subprocess.run(
        command, cwd=copy.source, env=env, capture_output=True, text=True, check=False,
        timeout=TIMEOUT,
    )  # fmt: skip
    verdicts: dict[str, str] = {}
    for line in done.stdout.splitlines():
        match = _OUTCOME.match(line)
        if match is None:
            continue
        docname = match[2].removesuffix(".rst")
        failed = match[1] in ("FAILED", "ERROR", "XPASS")
        if failed or docname not in verdicts:
            verdicts[docname] = FAILED if failed else PASSED
    return verdicts


def compare(sphinx: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """docname -> agree / collects nothing / disagree, over the documents either ran."""
    kinds: dict[str, str] = {}
    for docname in sorted(set(sphinx) | set(other)):
        expected, got = sphinx.get(docname, NOTHING), other.get(docname, NOTHING)
        if expected == got:
            kinds[docname] = "agree"
        elif got == NOTHING:
            kinds[docname] = "collects nothing"
        else:
            kinds[docname] = f"disagree (Sphinx: {expected}, runner: {got})"
    return kinds


def fresh_copy(project: Path, target: Path) -> Copy:
    shutil.copytree(project, target, ignore=shutil.ignore_patterns("__pycache__"))
    source, confdir = LAYOUT.get(project.name, ("", ""))
    return Copy(target / source, target / confdir)


def main() -> int:
    """Print the table; exit 1 if this engine disagrees with Sphinx on any document."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="every document's outcome")
    args = parser.parse_args()
    installed = [r for r in RUNNERS if importlib.util.find_spec(r.module) is not None]
    missing = [r.name for r in RUNNERS if r not in installed]
    projects = sorted(p for p in PROJECTS.iterdir() if (p / "__init__.py").is_file())
    counts = {r.name: {"agree": 0, "collects nothing": 0, "disagree": 0} for r in installed}
    details: list[str] = []
    with tempfile.TemporaryDirectory(prefix="doctest-peers-") as tmp:
        for project in projects:
            base = fresh_copy(project, Path(tmp) / project.name / "sphinx")
            sphinx = sphinx_verdicts(base, Path(tmp) / project.name / "out")
            for index, runner in enumerate(installed):
                copy = fresh_copy(project, Path(tmp) / project.name / str(index))
                for docname, kind in compare(sphinx, runner_verdicts(runner, copy)).items():
                    counts[runner.name][kind.partition(" (")[0]] += 1
                    details.append(f"{project.name}/{docname}: {runner.name}: {kind}")
    documents = sum(len(list(fresh.rglob("*.rst"))) for fresh in projects)
    print(f"per document, against sphinx-build -b doctest ({len(projects)} fixture projects, ")
    print(f"{documents} .rst files; counted: the documents Sphinx or the runner ran tests in)\n")
    print(f"| {'runner':42} | agree | collects nothing | disagree |")
    print(f"|{'-' * 44}|-------|------------------|----------|")
    for name, row in counts.items():
        line = f"| {name:42} | {row['agree']:5} | {row['collects nothing']:16} |"
        print(f"{line} {row['disagree']:8} |")
    if missing:
        print(f"\nnot installed, so not run: {', '.join(missing)}")
    if args.details:
        print("\n" + "\n".join(details))
    ours = counts[RUNNERS[0].name]
    if ours["collects nothing"] or ours["disagree"]:
        print(f"\n{RUNNERS[0].name} does not agree with Sphinx everywhere", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
