"""``.. probes::``: a requirement's probes, read from their own file, run as its examples do,
numbered after them, in a group of their own, reported as probes, left out by ``--quick``,
folded in HTML; a failing probe is named at its line in the probe file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.running import run_spec
from tests.sphinx_app import build

pytest_plugins = ["pytester"]

RULE = (
    "One\n===\n\n.. requirement:: ONE-1\n   :profile: core\n   :level: MUST\n\n"
    "   It MUST print what it is given.\n\n"
    ".. testcode::\n\n   shared = 'example'\n   print(1)\n\n.. testoutput::\n\n   1\n\n"
)
PROBES = ".. probes:: ONE-1\n"
#: probes/<docname>/ONE-1.rst; the last probe's code is at line 14
PROBE_FILE = (
    "Every value, not only one.\n\n"
    ".. testcode::\n\n   probed = []\n   print('shared' in globals())\n\n"
    ".. testoutput::\n\n   False\n\n"
    ".. testcode::\n\n   probed.append(2)\n   print(probed, {out})\n\n"
    ".. testoutput::\n\n   [2] 2\n"
)
#: a Sphinx project of its own: the probes folder holds parts of pages, not documents
CONF = (
    "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements']\n"
    "exclude_patterns = ['probes']\n"
)


def _write(path: Path, out: str = "2", docname: str = "one", probes: str = PROBE_FILE) -> Path:
    """The page ``docname`` with ONE-1 and its probes; the probe file's path."""
    (path / f"{docname}.rst").write_text(RULE + PROBES)
    probe_file = path / "probes" / docname / "ONE-1.rst"
    probe_file.parent.mkdir(parents=True, exist_ok=True)
    probe_file.write_text(probes.format(out=out))
    return probe_file


def test_probes_run_after_the_examples_in_a_namespace_of_their_own(
    pytester: pytest.Pytester,
) -> None:
    _write(pytester.path)
    result = run_spec(pytester, "-v", "--report", "r.json")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(
        ["*one.rst::ONE-1[[]1[]] PASSED*", "*one.rst::ONE-1[[]3[]] PASSED*"]
    )
    result.stdout.fnmatch_lines(["examples: 3/3 passed", "  of which probes: 2/2 passed"])
    data = json.loads((pytester.path / "r.json").read_text())
    assert data["verdict"]["probes"]["passed"] == data["verdict"]["probes"]["total"] == 2
    (record,) = data["requirements"]
    assert [(r["example"], r["probe"], r["group"]) for r in record["results"]] == [
        (1, False, "default"),
        (2, True, "probe:ONE-1"),
        (3, True, "probe:ONE-1"),
    ]


def test_a_failed_probe_fails_its_requirement_and_says_it_is_a_probe(
    pytester: pytest.Pytester,
) -> None:
    _write(pytester.path, out="3")
    result = run_spec(pytester)
    assert result.ret == 1, result.stdout.str()
    result.stdout.fnmatch_lines(
        ["*ONE-1 (MUST, profile core), probe 3:*", "*Expected:*", "*[[]2[]] 2*"]
    )


def test_quick_runs_the_examples_only_and_never_replays_a_probe(
    pytester: pytest.Pytester,
) -> None:
    _write(pytester.path, out="3")  # the failing probe would fail the run if it ran
    result = run_spec(pytester, "--quick", "-v")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*one.rst::ONE-1[[]1[]] PASSED*"])
    assert "ONE-1[2]" not in result.stdout.str()
    # without its probes a rule is not fully checked: the verdict says it judged a selection
    result.stdout.fnmatch_lines(
        ["verdict: reference passes every MUST that ran (partial: --quick; not a verdict*"]
    )
    assert "probes:" not in result.stdout.str()


def test_an_expected_failure_names_a_probe_by_its_number(pytester: pytest.Pytester) -> None:
    _write(pytester.path, out="3")
    (pytester.path / "x.toml").write_text('["ONE-1"]\nreason = "measured"\nexamples = [3]\n')
    result = run_spec(pytester, "--xfails-file", "x.toml", "-v")
    # a declared MUST failure is still a MUST failure: the verdict says so
    result.stdout.fnmatch_lines(["*one.rst::ONE-1[[]3[]] XFAIL*", "*1 MUST expected to fail*"])
    assert "one.rst::ONE-1[2] PASSED" in result.stdout.str()


def test_probes_after_another_requirement_are_refused(pytester: pytest.Pytester) -> None:
    (pytester.path / "probes" / "one").mkdir(parents=True)
    (pytester.path / "probes" / "one" / "TWO-1.rst").write_text(PROBE_FILE.format(out="2"))
    (pytester.path / "one.rst").write_text(RULE + PROBES.replace("ONE-1", "TWO-1"))
    result = run_spec(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "probes of TWO-1 follow requirement ONE-1" in result.stderr.str()


def test_a_probe_block_naming_a_group_is_refused(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(CONF)
    grouped = PROBE_FILE.replace(
        ".. testcode::\n\n   probed = []", ".. testcode:: mine\n\n   probed = []"
    )
    _write(tmp_path, docname="index", probes=grouped)
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert "a testcode block names the group(s) mine" in warnings


def test_probes_are_folded_under_their_rule_in_html(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(CONF)
    _write(tmp_path, docname="index")
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert warnings == ""
    html = (tmp_path / "out" / "index.html").read_text()
    folded = html.partition('<details class="forkwait-probes">')[2]
    assert folded.startswith("<summary>How this rule is probed (2 probes)</summary>")
    assert "Every value, not only one." in folded.partition("</details>")[0]


def test_a_failed_probe_is_named_at_its_line_in_the_probe_file(
    pytester: pytest.Pytester,
) -> None:
    _write(pytester.path, out="3")
    result = run_spec(pytester, "--rootdir", str(pytester.path), "--report", "r.json")
    assert result.ret == 1, result.stdout.str()
    head = "testcode at probes/one/ONE-1.rst, line 14 printed something else than expected:"
    # indented under the failure's headline, as every line of a failure's body
    result.stdout.fnmatch_lines([f"  {head}", "    14 | probed.append(2)"])
    data = json.loads((pytester.path / "r.json").read_text())
    failed = data["requirements"][0]["results"][2]
    assert (failed["example"], failed["line"], failed["outcome"]) == (3, 14, "failed")
    assert head in failed["message"]


def test_an_edited_probe_file_is_read_again(pytester: pytest.Pytester) -> None:
    """The page depends on its probe file: Sphinx's environment, which the suite keeps
    between runs, reads the page again after an edit of the file alone."""
    probe_file = _write(pytester.path)
    cache = ("--sphinx-cache-dir", str(pytester.path.parent / "sphinx-environments"))
    assert run_spec(pytester, *cache).ret == 0
    probe_file.write_text(PROBE_FILE.format(out="3"))
    result = run_spec(pytester, *cache)
    assert result.ret == 1, result.stdout.str()
    result.stdout.fnmatch_lines(["*Got:*", "*[[]2[]] 3*"])


@pytest.mark.parametrize(
    ("page", "probe_text", "error"),
    [
        (
            PROBES + "\n   inline\n",
            PROBE_FILE,
            "the directive has content; a rule's probes live in",
        ),
        (PROBES, "\n  \n", "is empty"),
        (PROBES, None, "does not exist; write the probes there"),
    ],
    ids=["inline-and-file", "empty-file", "no-file"],
)
def test_a_probe_file_that_is_not_one_is_an_error_naming_it(
    tmp_path: Path, page: str, probe_text: str | None, error: str
) -> None:
    (tmp_path / "conf.py").write_text(CONF)
    if probe_text is not None:
        _write(tmp_path, docname="index", probes=probe_text)
    (tmp_path / "index.rst").write_text(RULE + page)
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert "ERROR: probes of ONE-1: " in warnings, warnings
    assert str(tmp_path / "probes" / "index" / "ONE-1.rst") in warnings
    assert error in warnings


def test_a_probes_folder_read_as_documents_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(CONF.replace("'probes'", "'_build'"))
    _write(tmp_path, docname="index")
    _, warnings = build(tmp_path, tmp_path / "out", tmp_path / "dt", "html")
    assert "probes/index/ONE-1.rst is read as a document too; add 'probes' to" in warnings
