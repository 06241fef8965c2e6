"""--schedules N is honoured or refused: an explorer that gives fewer distinct schedule names
than asked (a fixed list, a seed space that repeats) stops the run before anything runs,
rather than exploring less than the run says it did."""

from __future__ import annotations

import json

import pytest

from tests.running import run_spec

pytest_plugins = ["pytester"]

ADAPTER = (
    "import dataclasses\n"
    "from conformance.adapter import Explorer\n"
    "from conformance.adapters import reference\n\n"
    "def adapter():\n"
    "    base = reference.adapter()\n"
    "    assert base.explorer is not None\n"
    "    names = {names}\n"
    "    explorer = Explorer(schedules=lambda n: names[:n], use=base.explorer.use)\n"
    "    return dataclasses.replace(base, name='short', explorer=explorer)\n"
)


@pytest.mark.parametrize(
    ("names", "asked", "gave"),
    [
        ("['fifo', 'lifo']", "8", "2 distinct schedule names ('fifo', 'lifo'), not 8"),
        ("['fifo'] * 64", "3", "1 distinct schedule names ('fifo', 'fifo', 'fifo'), not 3"),
    ],
)
def test_an_explorer_that_gives_fewer_schedules_than_asked_is_refused(
    pytester: pytest.Pytester, names: str, asked: str, gave: str
) -> None:
    (pytester.path / "short.py").write_text(ADAPTER.format(names=names))
    result = run_spec(pytester, "--impl", "short:adapter", "--schedules", asked, fixture="racy.rst")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert f"--schedules {asked}: the explorer of implementation 'short' gave {gave}" in (
        result.stderr.str()
    )


EXPLORED = (
    "E\n=\n\n.. requirement:: E-1\n   :profile: core\n   :level: MUST\n   :explore:\n\n"
    "   It MUST add.\n\n.. testcode::\n\n   @fw.script\n   def add(a: int) -> int:\n"
    "       return fw.wait(fw.fork(abs, a)) + 1\n\n   print(add(-2))\n\n"
    ".. testoutput::\n\n   3\n"
)


def test_sixty_four_schedules_run_sixty_four_times(pytester: pytest.Pytester) -> None:
    (pytester.path / "e.rst").write_text(EXPLORED)
    result = run_spec(pytester, "--schedules", "64", "-q", "--report", "r.json")
    assert result.ret == 0, result.stdout.str()
    assert "65 passed" in result.stdout.str()  # once plainly, once under each schedule
    names = {r["schedule"] for r in json.loads((pytester.path / "r.json").read_text())[
        "requirements"][0]["results"]}  # fmt: skip
    assert len(names - {""}) == 64
