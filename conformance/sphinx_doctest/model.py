"""A document's test groups, built exactly as ``DocTestBuilder.test_doc`` builds them.

The loop below mirrors Sphinx's ``test_doc`` (Sphinx 9) line for line, and
uses Sphinx's own ``TestGroup`` and the builder's own ``skipped``,
``get_filename_for_node`` and ``get_line_number``. Only two things are added:
each block remembers the docutils node it came from, and where its text
really is, so failures can point at the true file and line (Sphinx reports
``testcode`` failures at a wrong line, sphinx-doc/sphinx#8654).
"""

from __future__ import annotations

import functools
import os
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.ext.doctest import (
    DocTestBuilder,
    TestCode,
    TestGroup,
    _condition_default,
    _condition_with_doctest,
)
from sphinx.util import logging

from conformance.sphinx_doctest.project import SphinxProject

logger = logging.getLogger("sphinx.ext.doctest")

#: the group name Sphinx gives setup/cleanup code of doctest_global_setup/_cleanup
GLOBAL_SETUP = "<global_setup>"
GLOBAL_CLEANUP = "<global_cleanup>"


@dataclass(frozen=True)
class Location:
    """Where a block's first line of code really is, for people reading failures."""

    #: the file holding the text (.rst, an included file, or a module for docstrings)
    path: Path | None
    #: 1-based line of the block's first code line in ``path``, if known
    line: int | None
    #: what to call the place when the line is unknown (e.g. "docstring of m.f")
    label: str

    def __str__(self) -> str:
        where = str(self.path) if self.path is not None else self.label
        return f"{where}, line {self.line}" if self.line is not None else where


class Block(TestCode):
    """Sphinx's ``TestCode``, plus the node it came from and its true location."""

    def __init__(  # noqa: PLR0913 - TestCode's five, plus where the block came from
        self,
        code: str,
        type: str,
        filename: str,
        lineno: int | None,
        options: dict[int, bool] | None,
        *,
        node: nodes.Element | None,
        location: Location,
    ) -> None:
        super().__init__(code, type, filename, lineno, options)  # type: ignore[arg-type]
        self.node = node
        self.location = location


#: one test of a group: ``[doctest]``, ``(testcode, None)`` or ``[testcode, testoutput]``
Test = list[TestCode] | tuple[TestCode, None]


def document_groups(project: SphinxProject, docname: str) -> dict[str, TestGroup]:
    """The document's groups, in the order Sphinx runs them (``test_doc``)."""
    builder = project.builder
    config = project.config
    doctree = project.doctree(docname)
    groups: dict[str, TestGroup] = {}
    add_to_all_groups: list[TestCode] = []
    if config.doctest_test_doctest_blocks:
        condition = _condition_with_doctest
    else:
        condition = _condition_default
    for node in doctree.findall(condition):
        assert isinstance(node, nodes.Element)
        if builder.skipped(node):
            continue
        source = node["test"] if "test" in node else node.astext()
        filename = builder.get_filename_for_node(node, docname)
        line_number = builder.get_line_number(node)
        if not source:
            logger.warning(
                "no code/output in %s block at %s:%s",
                node.get("testnodetype", "doctest"),
                filename,
                line_number,
            )
        code = Block(
            source,
            type=node.get("testnodetype", "doctest"),
            filename=filename,
            lineno=line_number,  # None for docstrings, as in Sphinx
            options=node.get("options"),
            node=node,
            location=locate(node, source, project, docname),
        )
        node_groups = node.get("groups", [config.doctest_test_doctest_blocks])
        if "*" in node_groups:
            add_to_all_groups.append(code)
            continue
        for groupname in node_groups:
            if groupname not in groups:
                groups[groupname] = TestGroup(groupname)
            groups[groupname].add_code(code)
    for shared in add_to_all_groups:
        for group in groups.values():
            group.add_code(shared)
    _add_global_code(groups, config.doctest_global_setup, config.doctest_global_cleanup)
    return groups


def _add_global_code(groups: dict[str, TestGroup], setup: str, cleanup: str) -> None:
    """doctest_global_setup first, doctest_global_cleanup last, in every group (test_doc)."""
    if setup:
        code = _from_conf(setup, "testsetup", GLOBAL_SETUP, "doctest_global_setup")
        for group in groups.values():
            group.add_code(code, prepend=True)
    if cleanup:
        code = _from_conf(cleanup, "testcleanup", GLOBAL_CLEANUP, "doctest_global_cleanup")
        for group in groups.values():
            group.add_code(code)


def _from_conf(code: str, kind: str, filename: str, value: str) -> Block:
    """A block conf.py gives as a configuration value (Sphinx's TestCode at line 0)."""
    where = Location(None, None, f"{value} (conf.py)")
    return Block(code, kind, filename=filename, lineno=0, options=None, node=None, location=where)


def locate(node: nodes.Element, source: str, project: SphinxProject, docname: str) -> Location:
    """Find the block's first code line in the file that holds it.

    docutils records the line of the directive, not of its content (options and
    blank lines lie between), so the content's first line is searched for from
    there. Docstrings (autodoc) only know lines relative to the docstring.
    """
    raw_source = node.source or str(project.path_of(docname))
    path, name, docstring = _file_of(raw_source)
    if docstring:
        return Location(path, None, f"docstring of {docstring}")
    first = next((line.strip() for line in source.splitlines() if line.strip()), None)
    start = node.line or 1
    if first is not None:
        lines = _lines_of(name)
        for number in range(max(start - 1, 1), len(lines) + 1):
            if lines[number - 1].strip() == first:
                return Location(path, number, name)
    return Location(path, node.line, name)


def _lines_of(name: str) -> tuple[str, ...]:
    """The file's lines, read once while it is unchanged.

    Not through ``linecache``: a file put there is stat'ed again by every
    ``doctest`` run after (``bdb.reset`` calls ``linecache.checkcache``), a
    system call per document per example."""
    try:
        stat = os.stat(name)
    except OSError:
        return ()
    # ctime too: a copy that keeps an older mtime and the size (cp -p) still changes it
    return _read_lines(name, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _read_lines(name: str, mtime_ns: int, ctime_ns: int, size: int) -> tuple[str, ...]:
    del mtime_ns, ctime_ns, size  # only keys: a changed file is read again
    try:
        with tokenize.open(name) as file:  # as linecache reads (a coding cookie, else UTF-8)
            return tuple(file.readlines())
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ()


@functools.lru_cache(maxsize=256)
def _file_of(raw_source: str) -> tuple[Path, str, str]:
    """(path, its text, the docstring named) of a node's source; a document's blocks
    all share one, made once rather than a Path per block."""
    path_text, _, docstring = raw_source.partition(":docstring of ")
    path = Path(path_text)
    return path, str(path), docstring


def block_of(code: TestCode) -> Block:
    """Every TestCode this plugin builds is a Block."""
    assert isinstance(code, Block)
    return code


def test_kind(test: Any) -> str:
    """``doctest`` or ``testcode``: what kind of block a group's test is."""
    return str(test[0].type)


__all__ = [
    "GLOBAL_CLEANUP",
    "GLOBAL_SETUP",
    "Block",
    "DocTestBuilder",
    "Location",
    "Test",
    "block_of",
    "document_groups",
    "locate",
    "test_kind",
]
