"""Ruff over the code of the spec's examples and probes, reported at their lines in the .rst.

Every ``testsetup``/``testcode``/``testcleanup``/``doctest`` block that ``sphinx-build -b
doctest`` would run is read with Sphinx, through the engine's ``document_groups``, as the
suite reads it (so a probe file's blocks are found in that file). Per document and group, the
blocks are written into one Python file in the order Sphinx runs the group, after conf.py's
``doctest_global_setup`` (which binds ``fw``): a name the group's setup or an earlier example
defines is known there, as it is when the examples run. Ruff checks those files with rules that
suit example code (pyflakes, bugbear, syntax errors: no docstring, annotation or style rules),
and each finding is mapped back to the file, line and column its code came from.

Examples of one group run one after the other, each a story of its own: a later one may define
again a name an earlier one defined and used. Pyflakes, which reads the file as one module whose
functions run at its end, calls that a redefinition of an unused name (F811); such a finding
counts only when both definitions are in one block.

    python -m tests.spec.lint_doc_code [SRCDIR [CONFDIR]]    (default: the spec, conf/)
"""

from __future__ import annotations

import doctest
import functools
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.sphinx_doctest.model import Block, block_of
from conformance.sphinx_doctest.project import SphinxSource, default_cache_root, read_project

#: ruff's rule selection for example code: pyflakes, bugbear, syntax errors
RULES = ("F", "B", "E9")
#: bugbear's rules that do not fit examples: ``zip(strict=...)`` (B905) would make a check
#: raise where it compares; a closure over a loop variable (B023) is how an example makes a
#: thread or a callback that it runs, and waits for, in the same iteration
IGNORED = ("B905", "B023")
#: what pyflakes says of a name an earlier line defined: "... from line N"
_EARLIER_LINE = re.compile(r"\bfrom line (\d+)")


@dataclass(frozen=True)
class Origin:
    """Where a line of a group's file came from: a file and line (or a label), and how far
    the code is indented there (a directive's indentation, a ``>>>`` prompt)."""

    where: str
    line: int | None
    column_offset: int = 0
    #: which block of its group's file
    block: int = 0
    #: a line of a ``>>>`` example, where an expression's value is what the example shows
    shown: bool = False


@dataclass
class GroupFile:
    """One group's blocks as one Python file, each line with its origin."""

    lines: list[str] = field(default_factory=list)
    origins: list[Origin | None] = field(default_factory=list)
    blocks: int = 0

    def add(self, block: Block) -> None:
        for text, origin in block_lines(block):
            self.lines.append(text)
            self.origins.append(replace(origin, block=self.blocks))
        self.lines.append("")  # blocks are statements of their own
        self.origins.append(None)
        self.blocks += 1

    def origin(self, row: int) -> Origin:
        """Where line ``row`` (1-based) of this file came from."""
        origin = self.origins[row - 1] if 0 < row <= len(self.origins) else None
        return origin or Origin("(between blocks)", None, block=-1)


def block_lines(block: Block) -> Iterator[tuple[str, Origin]]:
    """The code of ``block`` line by line, each with its place (a doctest's sources only)."""
    location = block.location
    where = str(location.path) if location.path is not None else location.label
    if block.type == "doctest":
        for example in doctest.DocTestParser().get_examples(block.code):
            for offset, text in enumerate(example.source.splitlines()):
                origin = _origin(where, location.line, example.lineno + offset, text)
                yield text, replace(origin, shown=True)
    else:
        for offset, text in enumerate(block.code.splitlines()):
            yield text, _origin(where, location.line, offset, text)


def _origin(where: str, first: int | None, offset: int, code: str) -> Origin:
    if first is None:
        return Origin(where, None)
    line = first + offset
    lines = _file_lines(where)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(text) - len(code) if code and text.endswith(code) else 0
    return Origin(where, line, indent)


@functools.cache
def _file_lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except OSError:
        return ()


def group_files(srcdir: Path, confdir: Path, cache: Path) -> dict[str, GroupFile]:
    """``document[group]`` -> its blocks as one file, in the order Sphinx runs the group."""
    project = read_project(srcdir, SphinxSource(confdir), cache)
    files: dict[str, GroupFile] = {}
    for docname in project.docnames():
        for name, group in project.groups(docname)[0].items():
            file = files[f"{docname}[{name}]"] = GroupFile()
            tests = [block_of(test[0]) for test in group.tests]
            for block in [*map(block_of, group.setup), *tests, *map(block_of, group.cleanup)]:
                file.add(block)
    return files


def findings(files: dict[str, GroupFile], root: Path) -> list[str]:
    """``path:line:column: CODE message`` for each thing ruff finds, once (a block in
    several groups is read in each), sorted by file and line."""
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="doc-code-") as folder:
        names = {}
        for number, (label, file) in enumerate(files.items()):
            path = Path(folder) / f"group{number}.py"
            path.write_text("\n".join(file.lines) + "\n", encoding="utf-8")
            names[str(path)] = label
        command = [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache"]
        command += ["--select", ",".join(RULES), "--ignore", ",".join(IGNORED)]
        command += ["--target-version", "py311"]
        done = subprocess.run(
            [*command, "--output-format", "json", folder],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode not in (0, 1):
            raise RuntimeError(f"ruff failed ({done.returncode}):\n{done.stderr}")
        reports = json.loads(done.stdout)
    found: dict[tuple[str, int, int, str], str] = {}
    for report in reports:
        file = files[names[report["filename"]]]
        origin = file.origin(report["location"]["row"])
        message = str(report["message"])
        earlier = _EARLIER_LINE.search(message)
        if earlier is not None:
            before = file.origin(int(earlier.group(1)))
            if report["code"] == "F811" and before.block != origin.block:
                continue  # another example's name, defined again (see the module's docstring)
            message = message.replace(earlier.group(0), f"from line {before.line}")
        if report["code"] == "B018" and origin.shown:
            continue  # a useless expression, but for ``>>>``: it shows its value
        column = int(report["location"]["column"]) + origin.column_offset
        key = (_shown(origin.where, root), origin.line or 0, column, report["code"] or "")
        found.setdefault(key, message)
    return [
        f"{where}:{line}:{column}: {code} {message}"
        for (where, line, column, code), message in sorted(found.items())
    ]


def _shown(where: str, root: Path) -> str:
    path = Path(where)
    return str(path.relative_to(root)) if path.is_relative_to(root) else where


def main(argv: list[str]) -> int:
    srcdir = Path(argv[0]) if argv else spec_dir()
    confdir = Path(argv[1]) if len(argv) > 1 else (srcdir if argv else spec_conf_dir())
    lines = findings(group_files(srcdir, confdir, default_cache_root()), Path.cwd())
    for line in lines:
        print(line)
    if lines:
        count = f"{len(lines)} finding{'s' if len(lines) > 1 else ''}"
        print(f"{count} in the code of the examples and probes", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
