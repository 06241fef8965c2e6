"""make test's stages (tests/stages.py) run every test once, and fail as one pytest run would."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests import stages
from tests.paths import REPO


def stage_of(path: Path) -> list[str]:
    """The stages whose paths hold ``path`` and whose ignores do not."""

    def under(root: str) -> bool:
        return path == REPO / root or (REPO / root) in path.parents

    return [
        stage.name
        for stage in stages.STAGES
        if any(under(p) for p in stage.paths) and not any(under(p) for p in stage.ignore)
    ]


def test_every_test_file_runs_in_exactly_one_stage() -> None:
    files = [*sorted((REPO / "tests").rglob("test_*.py")), REPO / "docs"]
    assert len(files) > 10
    assert {str(f.relative_to(REPO)): stage_of(f) for f in files if len(stage_of(f)) != 1} == {}


def test_the_stages_collect_what_pytest_is_configured_to() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    testpaths = config["tool"]["pytest"]["ini_options"]["testpaths"]
    roots = {path.split("/")[0] for stage in stages.STAGES for path in stage.paths}
    assert roots == set(testpaths)
    for stage in stages.STAGES:
        assert all((REPO / p).exists() for p in (*stage.paths, *stage.ignore)), stage


def test_stage_names_are_rejected_when_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert stages.main(["unit", "nonesuch"]) == 2
    assert "no such stage: nonesuch (the stages: unit, differential," in capsys.readouterr().err


def test_a_failing_or_empty_stage_fails_the_run_and_the_rest_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_passes.py").write_text("def test_ok():\n    pass\n", encoding="utf-8")
    (tmp_path / "test_fails.py").write_text("def test_no():\n    assert False\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    monkeypatch.setattr(stages, "WORKERS", "0")  # no worker processes: this test is about exits
    monkeypatch.chdir(tmp_path)
    run = [
        stages.Stage("fails", "a stage with a failing test", ("test_fails.py",)),
        stages.Stage("empty", "a stage that collects nothing", ("empty",)),
        stages.Stage("passes", "a stage that passes", ("test_passes.py",)),
    ]
    assert stages.run(run) == 1
    out = capfd.readouterr().out
    assert " stage 3 of 3: passes " in out
    assert "a stage that passes\n$ " in out
    assert "1 passed" in out
    table = out[out.index(" stages ") :]
    assert "fails" in table
    assert "FAILED: pytest's exit status 1" in table
    assert "FAILED: collected no tests" in table
    assert "2 of 3 stages failed; run again with: " in table
    assert table.rstrip().endswith("-m tests.stages fails empty")


def test_a_run_of_passing_stages_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_passes.py").write_text("def test_ok():\n    pass\n", encoding="utf-8")
    monkeypatch.setattr(stages, "WORKERS", "0")
    monkeypatch.chdir(tmp_path)
    assert stages.run([stages.Stage("passes", "a stage that passes", ("test_passes.py",))]) == 0
    assert "every stage passed (1 of 1)" in capfd.readouterr().out


def test_make_test_leaves_out_only_the_mutant_runs_and_ci_runs_them() -> None:
    """The mutants' runs are not make test's, so CI must run them: make check (what .ci/run
    runs) has make mutants among its prerequisites."""
    assert [stage.name for stage in stages.STAGES if not stage.default] == ["mutants"]
    assert [stage.name for stage in stages.DEFAULT] == [
        s.name for s in stages.STAGES if s.name != "mutants"
    ]
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    check = makefile.partition("\ncheck: docs-tools")[2].partition("\n\n")[0]
    assert " test mutants " in check.replace("\\\n", " ").replace("\t", " "), check


def test_skips_are_counted_and_explained_and_an_all_skipped_stage_is_not_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_some.py").write_text(
        "import pytest\n"
        "def test_ok():\n    pass\n"
        "@pytest.mark.xfail(reason='known')\ndef test_xfails():\n    assert False\n"
        "@pytest.mark.skip(reason='no browser here')\ndef test_skips():\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "test_all.py").write_text(
        "import pytest\npytestmark = pytest.mark.skip(reason='Playwright is missing')\n"
        "def test_a():\n    pass\ndef test_b():\n    pass\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(stages, "WORKERS", "0")
    monkeypatch.chdir(tmp_path)
    run = [
        stages.Stage("some", "some tests skip", ("test_some.py",)),
        stages.Stage("all", "every test skips", ("test_all.py",)),
    ]
    assert stages.run(run) == 0
    out = capfd.readouterr().out
    assert "SKIPPED [1] test_some.py" in out  # pytest's own summary gives each reason (-rs)
    table = out[out.index(" stages ") :]
    lines = {line.split()[0]: line for line in table.splitlines() if line.strip()}
    assert lines["some"].endswith("passed, 1 of 3 tests skipped")  # the xfail ran: no skip
    assert lines["all"].endswith("skipped: all 2 tests skipped")
    assert "  some: 1 skipped: no browser here" in table
    assert "  all: 2 skipped: Playwright is missing" in table
    assert "no stage failed; 1 of 2 passed, skipped: all (every test of it skipped" in table
    assert "every stage passed" not in table
