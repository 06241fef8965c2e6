"""Record what ``doctest.DocTestRunner`` runs and reports, as JSON lines.

Importing this module patches ``doctest.DocTestRunner`` at class level, so that
every runner in the process (``sphinx.ext.doctest.SphinxDocTestRunner`` is a
subclass) appends one JSON object per line to the file named by the environment
variable ``SPHINX_DOCTEST_EVENTS`` (nothing is written when it is unset):

``run``
    ``DocTestRunner.run`` was called: the ``doctest.DocTest`` (name, filename,
    lineno, docstring), every example it holds (lineno, source, want, exc_msg,
    indent, options as ``{flag name: bool}``), the runner's option flags, the
    effective compile flags, ``clear_globs`` and the names already in the
    namespace. The examples skipped by ``SKIP`` have no other event, so this is
    where they show.
``success`` / ``failure``
    ``report_success`` / ``report_failure``: the example, ``got``, and
    ``printed``, the text the method wrote to the runner's ``out``.
``exception``
    ``report_unexpected_exception``: the example, the exception's type name,
    message and formatted traceback, and ``printed``.
``run_end``
    ``run`` returned (``failures``, ``tries``) or raised (``raised``).

Which calls are recorded, and why: ``DocTestRunner.__run`` calls
``report_start`` before and one of ``report_success`` / ``report_failure`` /
``report_unexpected_exception`` after every example that is not skipped,
whatever the runner's verbosity (``verbose`` only changes what those methods
print), *unless* ``REPORT_ONLY_FIRST_FAILURE`` is set and the test already had a
failure ("quiet"), in which case it calls none of them. ``report_start`` adds
nothing the outcome does not say, so it is not recorded; the ``run`` and
``run_end`` events (with ``tries`` and ``failures``) cover the quiet examples.
A runner class that overrides a ``report_*`` method is recorded too: during
``run`` the instance gets a recording wrapper around its own method (and the
class-level wrapper steps aside if the override calls ``super()``).

Every event carries ``pid`` and ``doc``, the document being run: Sphinx's
docname as set by :func:`begin_document` (``run_sphinx`` wraps
``DocTestBuilder.test_doc`` to call it), or, under pytest, the source path of the
running item relative to ``SPHINX_DOCTEST_SRCDIR`` (or the rootdir) without its
suffix. Under pytest ``item`` holds the running item's node id (``None``
outside items). When the document changes, a line ``<pid>\\t@doc <docname>`` is
appended to the order log named by ``SPHINX_DOCTEST_ORDER``, so the markers
blocks append there can be split per document.

Load it in pytest with ``-p tests.sphinx_doctest.recorder`` (pytest-xdist workers
load ``-p`` plugins too); it also adds the property ``recorder_doc`` (the
document, as above) to every item's JUnit report.
"""

from __future__ import annotations

import doctest
import functools
import json
import os
import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

ENV_EVENTS = "SPHINX_DOCTEST_EVENTS"
ENV_ORDER = "SPHINX_DOCTEST_ORDER"
ENV_SRCDIR = "SPHINX_DOCTEST_SRCDIR"

REPORTS = {
    "report_success": "success",
    "report_failure": "failure",
    "report_unexpected_exception": "exception",
}
_BUSY = "_sphinx_doctest_recorder_busy"
_PATCHED = "_sphinx_doctest_recorder_patched"

FLAG_NAMES = {flag: name for name, flag in doctest.OPTIONFLAGS_BY_NAME.items()}

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]
Out = Callable[[str], object]


class _State:
    doc: str | None = None
    item: str | None = None
    order_doc: str | None = None


state = _State()


def _append(env: str, line: str) -> None:
    path = os.environ.get(env)
    if not path:
        return
    # one write() of an O_APPEND descriptor: lines of several processes do not mix
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def record(event: dict[str, Any]) -> None:
    """Append one event (with ``pid``, ``doc`` and ``item``) to the events file."""
    full = {"event": event.pop("event"), "pid": os.getpid(), "doc": state.doc, "item": state.item}
    full.update(event)
    _append(ENV_EVENTS, json.dumps(full, sort_keys=False) + "\n")


def begin_document(docname: str | None, item: str | None = None) -> None:
    """The events that follow belong to ``docname`` (and, under pytest, ``item``)."""
    state.doc = docname
    state.item = item
    if docname is not None and docname != state.order_doc:
        state.order_doc = docname
        _append(ENV_ORDER, f"{os.getpid()}\t@doc {docname}\n")


def flag_names(flags: int) -> list[str]:
    return sorted(name for flag, name in FLAG_NAMES.items() if flags & flag)


def describe_test(test: doctest.DocTest) -> dict[str, Any]:
    return {"name": test.name, "filename": test.filename, "lineno": test.lineno}


def describe_example(example: doctest.Example) -> dict[str, Any]:
    return {
        "lineno": example.lineno,
        "source": example.source,
        "want": example.want,
        "exc_msg": example.exc_msg,
        "indent": example.indent,
        "options": {
            FLAG_NAMES.get(flag, str(flag)): value
            for flag, value in sorted(example.options.items())
        },
    }


def describe_exception(exc_info: ExcInfo) -> dict[str, Any]:
    kind, value, tb = exc_info
    return {
        "type": kind.__name__,
        "message": str(value),
        "traceback": traceback.format_exception(kind, value, tb),
    }


def _outcome(
    kind: str,
    report: Callable[..., Any],
    out: Out,
    args: tuple[doctest.DocTest, doctest.Example, Any],
) -> Any:
    """Call ``report`` with a tee of ``out``, then record what it was told and printed."""
    printed: list[str] = []

    def tee(text: str) -> object:
        printed.append(text)
        return out(text)

    test, example, extra = args
    try:
        return report(tee, test, example, extra)
    finally:
        event: dict[str, Any] = {
            "event": kind,
            "test": describe_test(test),
            "example": describe_example(example),
        }
        if kind == "exception":
            event["exception"] = describe_exception(extra)
        else:
            event["got"] = extra
        event["printed"] = "".join(printed)
        record(event)


def _class_wrapper(kind: str, original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(
        self: doctest.DocTestRunner, out: Out, test: doctest.DocTest, example: doctest.Example,
        extra: Any,
    ) -> Any:  # fmt: skip
        if getattr(self, _BUSY, False):  # an instance wrapper already records this call
            return original(self, out, test, example, extra)
        setattr(self, _BUSY, True)
        try:
            return _outcome(kind, functools.partial(original, self), out, (test, example, extra))
        finally:
            setattr(self, _BUSY, False)

    setattr(wrapper, _PATCHED, True)
    return wrapper


def _instance_wrapper(
    runner: doctest.DocTestRunner, kind: str, bound: Callable[..., Any]
) -> Callable[..., Any]:
    def wrapper(out: Out, test: doctest.DocTest, example: doctest.Example, extra: Any) -> Any:
        setattr(runner, _BUSY, True)
        try:
            return _outcome(kind, bound, out, (test, example, extra))
        finally:
            setattr(runner, _BUSY, False)

    return wrapper


def _run_wrapper(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(
        self: doctest.DocTestRunner,
        test: doctest.DocTest,
        compileflags: int | None = None,
        out: Out | None = None,
        clear_globs: bool = True,
    ) -> Any:
        effective = compileflags
        if effective is None:
            effective = doctest._extract_future_flags(test.globs)  # type: ignore[attr-defined]
        record(
            {
                "event": "run",
                "test": {**describe_test(test), "docstring": test.docstring},
                "examples": [describe_example(example) for example in test.examples],
                "optionflags": flag_names(self.optionflags),
                "compileflags": effective,
                "clear_globs": clear_globs,
                "globs": sorted(test.globs),
            }
        )
        overridden = []
        for name, kind in REPORTS.items():
            if not getattr(getattr(type(self), name), _PATCHED, False):
                setattr(self, name, _instance_wrapper(self, kind, getattr(self, name)))
                overridden.append(name)
        try:
            result = original(self, test, compileflags, out, clear_globs)
        except BaseException as exc:
            record({"event": "run_end", "test": describe_test(test), "raised": repr(exc)})
            raise
        finally:
            for name in overridden:
                delattr(self, name)
        failures, tries = result
        record(
            {"event": "run_end", "test": describe_test(test), "failures": failures, "tries": tries}
        )
        return result

    setattr(run, _PATCHED, True)
    return run


def _skipped_wrapper(original: Callable[..., bool]) -> Callable[..., bool]:
    """``:skipif:`` runs doctest_global_setup/_cleanup: their markers belong to the
    document of the block being decided, whenever that happens (Sphinx decides when
    it reaches the document; the plugin while collecting it)."""

    @functools.wraps(original)
    def skipped(self: Any, node: Any) -> bool:
        outer = state.doc, state.item
        source = str(node.source or "").partition(":docstring of ")[0]
        root = Path(os.environ.get(ENV_SRCDIR) or str(self.srcdir))
        begin_document(docname_of(Path(source), root) if source else outer[0], outer[1])
        try:
            return original(self, node)
        finally:
            begin_document(*outer)

    setattr(skipped, _PATCHED, True)
    return skipped


def install() -> None:
    """Patch ``doctest.DocTestRunner`` and ``DocTestBuilder.skipped`` (once per process)."""
    from sphinx.ext.doctest import DocTestBuilder  # noqa: PLC0415

    runner = doctest.DocTestRunner
    if getattr(runner.run, _PATCHED, False):
        return
    for name, kind in REPORTS.items():
        setattr(runner, name, _class_wrapper(kind, getattr(runner, name)))
    runner.run = _run_wrapper(runner.run)  # type: ignore[method-assign]
    DocTestBuilder.skipped = _skipped_wrapper(DocTestBuilder.skipped)  # type: ignore[method-assign]


install()


# --- the pytest side -----------------------------------------------------------------------


def docname_of(path: Path, root: Path) -> str:
    """``path`` relative to ``root``, without suffix, with ``/``: a Sphinx docname."""
    try:
        relative = path.resolve().relative_to(root.resolve())
    except ValueError:
        return path.as_posix()
    return relative.with_suffix("").as_posix()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    root = Path(os.environ.get(ENV_SRCDIR) or item.config.rootpath)
    doc = docname_of(item.path, root)
    item.user_properties.append(("recorder_doc", doc))
    begin_document(doc, item.nodeid)
    try:
        return (yield)
    finally:
        state.item = None


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None]:
    try:
        return (yield)
    finally:
        state.doc = None
