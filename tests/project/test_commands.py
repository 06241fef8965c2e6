"""The project's commands are defined once: make's engines are pyproject.toml's, tox's are too,
and CI runs exactly ``make check``.

The engines the project ships are the ``forkwait.implementations`` entry points of
pyproject.toml; the Makefile reads them there, and an engine with an extra of its own name
gets it installed before it runs. tox cannot read that list, so its factors are checked here.
"""

from __future__ import annotations

import configparser
import re
import subprocess
import tomllib
from pathlib import Path

from tests.paths import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
#: every engine the project ships, in the matrix's order
ENGINES = list(PYPROJECT["entry-points"]["forkwait.implementations"])
#: the engines with an extra of their own name
WITH_EXTRAS = [engine for engine in ENGINES if engine in PYPROJECT["optional-dependencies"]]


def make(*args: str, venv: Path) -> str:
    """``make -n ARGS`` as a fresh checkout would run it: ``venv`` has nothing installed."""
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", f"VENV={venv}", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def make_variable(name: str) -> str:
    result = subprocess.run(
        ["make", "-s", "--no-print-directory", f"--eval=show: ; @echo $({name})", "show"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_make_reads_its_engines_from_pyproject() -> None:
    assert make_variable("ENGINES").split() == ENGINES
    assert {"reference", "torch", "threads"} <= set(ENGINES)


def test_an_engine_runs_with_its_extra_and_only_then(tmp_path: Path) -> None:
    lines = make(*(f"conformance-{e}" for e in ENGINES), venv=tmp_path).splitlines()
    runs: list[tuple[str, str | None]] = []
    extra: str | None = None
    for line in lines:
        if installed := re.search(r"pip install -q -e '\.\[test,(\w+)\]'", line):
            extra = installed.group(1)
        if engine := re.search(r"forkwait-conformance --impl (\S+)", line):
            runs.append((engine.group(1), extra))
            extra = None
    # each engine's extra is installed just before its run
    assert runs == [(e, e if e in WITH_EXTRAS else None) for e in ENGINES]
    assert make("conformance", venv=tmp_path).split()[-2:] == ["--impl", "reference"]


def test_make_check_installs_every_extra_before_the_tests(tmp_path: Path) -> None:
    lines = make("check", venv=tmp_path).splitlines()

    def first(pattern: str) -> int:
        found = [i for i, line in enumerate(lines) if re.search(pattern, line)]
        assert found, f"make check does not run {pattern!r}"
        return found[0]

    tests = first(r"-m tests\.stages")
    for extra in [*WITH_EXTRAS, "browser"]:
        assert first(re.escape(f"-e '.[test,{extra}]'")) < tests, extra
    for engine in ENGINES:
        first(rf"forkwait-conformance --impl {engine}\b")
    for step in ("FORKWAIT_MUTANTS=whole-spec", "ruff check", "mypy", "-b html", "-b doctest"):
        first(re.escape(step))
    first(r"wheel-smoke")
    first(r"benchmarks/peers\.py")


def test_ci_runs_the_system_packages_then_make_check() -> None:
    commands = [
        line.strip()
        for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert [c for c in commands if c.startswith("make")] == ["make system-packages", "make check"]


def tox() -> configparser.ConfigParser:
    config = configparser.ConfigParser(interpolation=None)
    config.read(REPO / "tox.ini", encoding="utf-8")
    return config


def test_tox_has_an_environment_for_every_engine() -> None:
    config = tox()
    sections = [s for s in config.sections() if s.startswith("testenv:conformance-")]
    assert len(sections) == 1, sections
    factors = re.fullmatch(r"testenv:conformance-\{(.+)\}", sections[0])
    assert factors, sections[0]
    assert factors.group(1).split(",") == ENGINES, "tox.ini's conformance envs: add the engine"
    assert f"conformance-{{{factors.group(1)}}}" in config["tox"]["env_list"]
    extras = [line.replace(" ", "") for line in config[sections[0]]["extras"].split("\n") if line]
    assert extras == ["test", *(f"{engine}:{engine}" for engine in WITH_EXTRAS)]
    # the env's name is the make target of that name
    assert "make --no-print-directory {env_name}" in config[sections[0]]["commands"]
