"""Every line of code the spec's pages show fits its code box: checked without a browser.

tests/spec/test_html_in_browser.py finds a clipped code box only on the pages it opens, and only
where Chromium is installed. This test reads the same documents with Sphinx (the doctrees
the conformance suite runs) and fails naming ``file:line`` for any code line wider than
:data:`MAX_CODE_CHARS`, on every page.

The limit was measured once in that browser (headless Chromium, furo, at 1400 and 1000 px,
every page): a code box (``pre``) is 717 to 736 px wide with 14 px of padding each side,
in furo's 13 px monospace font, 7.83 px a character (DejaVu Sans Mono here, 0.602 em; Menlo
is as wide, Consolas narrower). So (717 - 28) / 7.83 = 88 characters fit the narrowest box,
and the pages agreed: an 88-character line filled a 720 px box exactly, an 89-character one
overflowed it (725 px of content: the box scrolls, and the browser test fails).

Checked: the code a page's author wrote in its ``.rst`` - ``testcode``, ``testsetup``,
``testcleanup``, ``code-block`` and ``::`` blocks, the source lines of ``>>>`` examples.
Exempt: ``testoutput`` and the expected output of ``>>>`` examples (what an implementation
prints, kept byte for byte), and blocks a directive reads from another file (an adapter's
source, the report schema): they carry no ``.rst`` line and are formatted with that file.
"""

from __future__ import annotations

import doctest
from collections.abc import Iterator
from pathlib import Path

from docutils import nodes

from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.sphinx_doctest.project import SphinxSource, default_cache_root, read_project

#: characters of code that fit the narrowest code box (measured: see the module's docstring)
MAX_CODE_CHARS = 88
#: blocks whose lines are all output
_OUTPUT = "testoutput"
#: blocks whose lines are ``>>>`` examples: source checked, expected output exempt
_DOCTEST = "doctest"


def _is_code_block(node: nodes.Node) -> bool:
    """A literal block, or a test block Sphinx keeps as a comment (``testsetup``, ``:hide:``)."""
    if isinstance(node, (nodes.literal_block, nodes.doctest_block)):
        return True
    return isinstance(node, nodes.comment) and bool(node.get("testnodetype"))


def code_lines(block: nodes.Element) -> list[str]:
    """The lines of ``block`` that are code, as a page shows them (output lines left out)."""
    kind = block.get("testnodetype")
    if kind == _OUTPUT:
        return []
    text = block.astext()
    if kind != _DOCTEST and not isinstance(block, nodes.doctest_block):
        return text.splitlines()
    lines = text.splitlines()
    shown: list[str] = []
    for example in doctest.DocTestParser().get_examples(text):
        source_lines = example.source.count("\n")
        shown += lines[example.lineno : example.lineno + source_lines]
    return shown


def _rst_lines(source: list[str], start: int, lines: list[str]) -> Iterator[tuple[int, str]]:
    """Each of ``lines`` with its 1-based line in ``source``: the block's lines follow its
    directive (line ``start``) in order, so each is the next match after the one before."""
    at = start - 1
    for line in lines:
        wanted = line.strip()
        at = next((i for i in range(at, len(source)) if source[i].strip() == wanted), at)
        yield at + 1, line


def too_wide(root: Path, confdir: Path, cache: Path) -> Iterator[str]:
    """``file:line: N characters: <line>`` for each code line wider than :data:`MAX_CODE_CHARS`.

    The project at ``root`` is read with Sphinx, as the suite reads it (``confdir`` holds its
    conf.py; ``cache`` keeps its environment between runs).
    """
    project = read_project(root, SphinxSource(confdir), cache)
    for docname in project.docnames():
        for block in project.doctree(docname).findall(_is_code_block):
            assert isinstance(block, nodes.Element)
            if block.line is None or not block.source:
                continue  # read from another file by a directive: not written in the .rst
            path = Path(block.source)
            source = path.read_text(encoding="utf-8").splitlines()
            name = path.relative_to(root) if path.is_relative_to(root) else path
            for where, line in _rst_lines(source, block.line, code_lines(block)):
                if len(line) > MAX_CODE_CHARS:
                    yield f"{name}:{where}: {len(line)} characters: {line.strip()}"


def test_every_code_line_of_the_spec_fits_its_code_box() -> None:
    wide = list(too_wide(spec_dir(), spec_conf_dir(), default_cache_root()))
    assert not wide, (
        f"{len(wide)} code lines wider than {MAX_CODE_CHARS} characters (the code box clips "
        "them); wrap them as ruff format would:\n" + "\n".join(wide)
    )


def test_output_lines_are_exempt_and_doctest_source_lines_are_not() -> None:
    output = "x" * 100
    code = ">>> " + "y" * 100
    session = f"{code}\n{output}\n>>> z = 1\n"
    assert code_lines(nodes.literal_block(session, session, testnodetype=_DOCTEST)) == [
        code,
        ">>> z = 1",
    ]
    assert code_lines(nodes.doctest_block(session, session)) == [code, ">>> z = 1"]
    assert code_lines(nodes.literal_block(output, output, testnodetype=_OUTPUT)) == []
    assert code_lines(nodes.literal_block(output, output, testnodetype="testcode")) == [output]


def test_a_wide_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    wide = "print(" + "1 + " * 30 + "1)"
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "conf.py").write_text("extensions = ['sphinx.ext.doctest']\n", encoding="utf-8")
    (spec / "index.rst").write_text(
        "Title\n=====\n\n.. testcode::\n\n   x = 1\n   " + wide + "\n\n"
        ".. testoutput::\n\n   " + "9" * 100 + "\n\n"
        ".. code-block:: python\n\n   short = 2\n   " + wide + "\n",
        encoding="utf-8",
    )
    assert list(too_wide(spec, spec, tmp_path / "cache")) == [
        f"index.rst:7: {len(wide)} characters: {wide}",
        f"index.rst:16: {len(wide)} characters: {wide}",
    ]
