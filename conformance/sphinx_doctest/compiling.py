"""Compile examples as Sphinx does, and find where the code in a traceback came from.

``DocTestBuilder.init`` replaces ``doctest.compile`` with the builder's own
``compile`` method, whose mode is the builder's ``type``: ``exec`` for setup,
cleanup and ``testcode`` blocks, ``single`` for ``doctest`` blocks.
:func:`compiling` installs that very method for one run (so even a traceback
through it reads as under ``sphinx-build``).

doctest names every example's code ``<doctest GROUP[N]>``, the same name in
every test of a group, so a traceback alone cannot say which ``.rst`` line
failed. The code of the running test is known by that name while it runs;
functions and classes a test leaves in its namespace are noted with their
true place when it ends. :func:`format_exception` writes tracebacks with those
places.
"""

from __future__ import annotations

import doctest
import linecache
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import CodeType, FunctionType, TracebackType
from typing import Any, Protocol

from sphinx.ext.doctest import DocTestBuilder

from conformance.sphinx_doctest.model import Location

#: an example's block location, and the line offset of the example inside the block
Place = tuple[Location, int]

#: pseudo filename of the running test's examples -> their places
_running: dict[str, Place] = {}
#: id(code) -> (code, place) for code a finished test left behind; holding the code
#: object keeps its id from being reused
_code_places: dict[int, tuple[CodeType, Place]] = {}


class Compiler(Protocol):
    """What :func:`compiling` uses of Sphinx's ``DocTestBuilder``: ``compile`` and its mode."""

    type: str

    def compile(self, code: str, name: str, type: str, flags: Any, dont_inherit: bool) -> Any: ...


class DetachedCompiler:
    """``DocTestBuilder.compile`` without a builder, for a process that runs tests it did
    not read (the executor: the harness read the project). The method is Sphinx's own
    function; only its ``self``, which holds the mode it reads, is this object."""

    compile = DocTestBuilder.compile

    def __init__(self) -> None:
        self.type = "single"


@contextmanager
def compiling(
    builder: Compiler, mode: str, test: doctest.DocTest, places: list[Place]
) -> Iterator[None]:
    """Run ``test`` compiling as Sphinx would, knowing where each example came from."""
    names = {f"<doctest {test.name}[{number}]>": place for number, place in enumerate(places)}
    saved = dict(_running)
    original = vars(doctest).get("compile")
    _running.clear()
    _running.update(names)
    builder.type = mode
    doctest.compile = builder.compile  # type: ignore[attr-defined]
    try:
        yield
    finally:
        if original is None:
            del doctest.compile  # type: ignore[attr-defined]
        else:
            doctest.compile = original  # type: ignore[attr-defined]
        _note_namespace(test.globs, names)
        _running.clear()
        _running.update(saved)


def _note_namespace(namespace: Mapping[str, Any], names: Mapping[str, Place]) -> None:
    """Remember where the functions and classes a test defined came from."""
    for value in list(namespace.values()):
        for code in _codes_of(value):
            place = names.get(code.co_filename)
            if place is not None:
                _note(code, place)


def _codes_of(value: Any) -> Iterator[CodeType]:
    if isinstance(value, FunctionType):
        yield value.__code__
    elif isinstance(value, type):
        for member in vars(value).values():
            function = getattr(member, "__func__", member)
            if isinstance(function, FunctionType):
                yield function.__code__


def _note(code: CodeType, place: Place) -> None:
    _code_places[id(code)] = (code, place)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            _note(const, place)


def _place_of(code: CodeType) -> Place | None:
    entry = _code_places.get(id(code))
    if entry is not None and entry[0] is code:
        return entry[1]
    return _running.get(code.co_filename)


def _true_frame(code: CodeType, lineno: int) -> traceback.FrameSummary | None:
    place = _place_of(code)
    if place is None:
        return None
    location, offset = place
    if location.path is None or location.line is None:
        return traceback.FrameSummary(location.label, lineno + offset, code.co_name, line="")
    line = location.line + offset + lineno - 1
    text = linecache.getline(str(location.path), line).strip()
    return traceback.FrameSummary(str(location.path), line, code.co_name, line=text)


def format_exception(exc: BaseException) -> str:
    """A traceback from the example inward, every example frame at its true line."""
    lines: list[str] = []
    _format_chain(exc, lines, set())
    return "".join(lines)


def _format_chain(exc: BaseException, lines: list[str], seen: set[int]) -> None:
    seen.add(id(exc))
    if exc.__cause__ is not None and id(exc.__cause__) not in seen:
        _format_chain(exc.__cause__, lines, seen)
        lines.append("\nThe above exception was the direct cause of the following exception:\n\n")
    elif (
        exc.__context__ is not None
        and not exc.__suppress_context__
        and id(exc.__context__) not in seen
    ):
        _format_chain(exc.__context__, lines, seen)
        lines.append("\nDuring handling of the above exception, another exception occurred:\n\n")
    frames = _frames(exc.__traceback__)
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines += traceback.StackSummary.from_list(frames).format()
    if isinstance(exc, SyntaxError) and exc.filename in _running:
        place = _true_frame_for_syntax(exc)
        if place is not None:
            lines.append(f'  File "{place[0]}", line {place[1]}\n')
            lines += traceback.format_exception_only(type(exc), exc)[1:]
            return
    lines += traceback.format_exception_only(type(exc), exc)


def _true_frame_for_syntax(exc: SyntaxError) -> tuple[str, int] | None:
    assert exc.filename is not None
    location, offset = _running[exc.filename]
    if location.path is None or location.line is None or exc.lineno is None:
        return None
    return str(location.path), location.line + offset + exc.lineno - 1


def _frames(tb: TracebackType | None) -> list[traceback.FrameSummary]:
    """The frames of ``tb``; harness frames before the first example frame are dropped, and
    so are frames that hide themselves (pytest's ``__tracebackhide__``: the handler of a
    deadline that raised into the example is no part of where the example was)."""
    entries: list[TracebackType] = []
    while tb is not None:
        if not tb.tb_frame.f_locals.get("__tracebackhide__", False):
            entries.append(tb)
        tb = tb.tb_next
    mapped = [_true_frame(entry.tb_frame.f_code, entry.tb_lineno) for entry in entries]
    first = next((i for i, frame in enumerate(mapped) if frame is not None), len(entries))
    if first == len(entries):  # raised before any example code ran (e.g. compiling it)
        first = next(
            (i for i, e in enumerate(entries) if e.tb_frame.f_code.co_filename != doctest.__file__),
            0,
        )
    return [mapped[i] or _plain_frame(entries[i]) for i in range(first, len(entries))]


def _plain_frame(tb: TracebackType) -> traceback.FrameSummary:
    code = tb.tb_frame.f_code
    text = linecache.getline(code.co_filename, tb.tb_lineno).strip()
    return traceback.FrameSummary(code.co_filename, tb.tb_lineno, code.co_name, line=text)


__all__ = ["Compiler", "DetachedCompiler", "Place", "compiling", "format_exception"]
