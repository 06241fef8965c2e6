"""docs/coverage.rst, the traceability table: every row is mapped to requirements or reasoned.

The page has one row per upstream test of ``test/jit/test_async.py`` and
``test/test_futures.py`` (listed here, so that a row cannot silently go),
per documented property of the two docstring files, and per GitHub issue the
spec's rules come from. A row is *mapped* when its last cell names
requirements (``:req:`ID```) that the spec defines, or *reasoned* when the
cell says ``Out of scope:`` and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.catalog.files import spec_dir
from conformance.catalog.requirements import requirements_in

PAGE = spec_dir() / "coverage.rst"
OUT_OF_SCOPE = "Out of scope:"

#: upstream's tests of fork/wait (pytorch/pytorch test/jit/test_async.py)
TEST_ASYNC = {
    "test_async_python",
    "test_async_future_type_python",
    "test_async_parsing",
    "test_async_script",
    "test_async_script_capture",
    "test_async_script_nested",
    "test_async_script_no_script_mod",
    "test_async_script_multi_waits",
    "test_async_script_multi_forks",
    "test_async_kwargs",
    "test_async_script_trace",
    "test_async_script_error",
    "test_async_grad_guard_with_grad",
    "test_async_grad_guard_no_grad",
    "test_trace_fork_wait",
    "test_trace_fork_wait_leaking",
    "test_trace_fork_wait_inline",
    "test_trace_fork_wait_inline_onnx",
    "test_trace_fork_wait_list_modulecalls",
    "test_trace_modulecalls_with_different_output_types",
    "test_no_future_subtype_message",
    "test_future_subtyping",
}
#: upstream's tests of torch.futures (test/test_futures.py; the last two, of earlier versions)
TEST_FUTURES = {
    "test_set_exception",
    "test_set_exception_multithreading",
    "test_done",
    "test_done_exception",
    "test_wait",
    "test_wait_multi_thread",
    "test_mark_future_twice",
    "test_pickle_future",
    "test_then",
    "test_chained_then",
    "test_then_wrong_arg",
    "test_then_no_arg",
    "test_then_raise",
    "test_add_done_callback_simple",
    "test_add_done_callback_maintains_callback_order",
    "test_add_done_callback_error_is_ignored",
    "test_add_done_callback_no_arg_error_is_ignored",
    "test_interleaving_then_and_add_done_callback_maintains_callback_order",
    "test_interleaving_then_and_add_done_callback_propagates_error",
    "test_collect_all",
    "test_wait_all",
    "test_wait_none",
    "test_unwrap",
    "test_unwrap_throw_error",
}


@dataclass(frozen=True)
class Row:
    table: str
    cells: tuple[str, ...]
    line: int

    @property
    def ids(self) -> list[str]:
        return re.findall(r":req:`([^`]+)`", self.cells[-1])

    @property
    def reason(self) -> str | None:
        last = self.cells[-1]
        return last[len(OUT_OF_SCOPE) :].strip() if last.startswith(OUT_OF_SCOPE) else None


def rows(path: Path = PAGE) -> list[Row]:
    """The body rows of every ``list-table`` on the page (header rows left out)."""
    found: list[Row] = []
    table = ""
    cells: list[str] = []
    start = 0
    header = False

    def close() -> None:
        nonlocal header
        if cells:
            if header:
                header = False
            else:
                found.append(Row(table, tuple(" ".join(c.split()) for c in cells), start))
            cells.clear()

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(".. list-table::"):
            close()
            table = line.partition("::")[2].strip()
            header = True
        elif line.startswith("   * - "):
            close()
            cells.append(line[len("   * - ") :])
            start = number
        elif line.startswith("     - "):
            cells.append(line[len("     - ") :])
        elif line.startswith("       ") and cells:
            cells[-1] += " " + line.strip()
        elif not line.startswith("   ") and line.strip():
            close()
    close()
    return found


def test_the_page_is_in_the_spec_and_has_the_four_upstream_sources() -> None:
    tables = {row.table for row in rows()}
    assert {
        "``test/jit/test_async.py``",
        "``test/test_futures.py``",
        "``torch/jit/_async.py``",
        "``torch/futures/__init__.py``",
    } <= tables


def test_every_row_has_three_cells() -> None:
    assert [row.line for row in rows() if len(row.cells) != 3] == []


def test_every_named_requirement_exists() -> None:
    known = set(requirements_in(spec_dir()))
    named = {req_id for row in rows() for req_id in row.ids}
    assert named, "the page names no requirement"
    assert sorted(named - known) == []


@pytest.mark.parametrize("row", rows(), ids=lambda row: f"line {row.line}")
def test_every_row_is_mapped_or_reasoned(row: Row) -> None:
    if row.reason is None:
        assert row.ids, f"line {row.line}: neither requirements nor 'Out of scope:' ({row.cells})"
    else:
        assert len(row.reason.split()) >= 6, f"line {row.line}: a reason, not a word"


def _tests_in(table: str) -> list[str]:
    return [row.cells[0].split("``")[1] for row in rows() if row.table == table]


@pytest.mark.parametrize(
    ("table", "expected"),
    [("``test/jit/test_async.py``", TEST_ASYNC), ("``test/test_futures.py``", TEST_FUTURES)],
)
def test_one_row_per_upstream_test(table: str, expected: set[str]) -> None:
    named = _tests_in(table)
    assert len(named) == len(set(named)), "a test has two rows"
    assert set(named) == expected


def test_the_parser_sees_mapped_and_reasoned_rows(tmp_path: Path) -> None:
    page = tmp_path / "page.rst"
    page.write_text(
        ".. list-table:: demo\n   :header-rows: 1\n\n"
        "   * - Upstream\n     - Behaviour\n     - Specified by\n"
        "   * - ``a``\n     - one\n     - :req:`FORK-CALLS-1`, :req:`FUTURE-DONE-1`\n"
        "   * - ``b``\n     - two\n     - Out of scope: a reason that is long\n"
        "       enough to count.\n",
        encoding="utf-8",
    )
    found = rows(page)
    assert [row.ids for row in found] == [["FORK-CALLS-1", "FUTURE-DONE-1"], []]
    assert found[1].reason == "a reason that is long enough to count."
