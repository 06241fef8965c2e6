"""The executor process: imports the adapter, runs examples on request, answers as data.

Started by handle.py as ``python -P -m conformance.executor.main CONFIG`` with
two pipe ends of its own (``pass_fds``); its stdout and stderr are files the
harness reads. The harness's first frame is the channel's token (wire.py).
Requests name a test by (document, group, test index, variant); the answers
carry doctest's results. The executor never reads the project: the first
request about a document is answered ``need_groups``, and the harness sends
that document's groups (documents.py). One executor runs many examples (an engine's costly
start-up is paid once); the harness replaces it after a crash, a hang or a
timeout, and the new one rebuilds a group's namespace by replaying its
earlier tests, reporting any replay that fails.

Before each answer it checks that it is still itself: a fork child of an
example that came back here ends quietly instead of answering, and a channel
whose descriptors an example closed or replaced fails that example instead
of the next one.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, NoReturn

from _pytest.config import parse_warning_filter
from _pytest.outcomes import OutcomeException
from sphinx.config import eval_config_file
from sphinx.util.tags import Tags

from conformance.adapter import Adapter, AdapterError, load_adapter
from conformance.executor import documents, state, wire
from conformance.executor.describe import describe
from conformance.executor.implementation import select
from conformance.executor.processes import CHANNEL_EXIT, die_with_parent, watch_harness
from conformance.sphinx_doctest.compiling import DetachedCompiler
from conformance.sphinx_doctest.document_run import DocumentRun, SetupFailed
from conformance.sphinx_doctest.outcome import DeadlineExceeded
from conformance.sphinx_doctest.runners import WHERE_NOTE

_MAIN = threading.main_thread()
#: seconds the harness has to send the token after starting the executor
_HELLO_WAIT = 60.0


class Executor:
    """The executor's state: one DocumentRun per document it was sent, the adapter."""

    def __init__(self, config: dict[str, Any], channel: wire.Channel) -> None:
        self.config = config
        self.channel = channel
        self.timeout = float(config["timeout"])
        self.adapter: Adapter | None = None
        #: the files of the implementation's modules: path -> [mtime_ns, ctime_ns, size]
        self.code: dict[str, list[int]] = {}
        self.runs: dict[str, DocumentRun] = {}
        self.unreplayable: dict[str, set[int]] = {}
        self.armed = False
        #: the sequence number of the request in flight (0: the start-up)
        self.seq = 0
        self.pid = os.getpid()
        self.identity = channel.identity()

    def load(self) -> None:
        configure_like_sphinx(Path(self.config["confdir"]))
        before = set(sys.modules)
        self.adapter = load_adapter(self.config["impl"], deadline=self.timeout)
        self.code = files_of(sys.modules[name] for name in set(sys.modules) - before)
        select(self.adapter)
        for warning_filter in self.adapter.warning_filters:
            warnings.filterwarnings(*parse_warning_filter(warning_filter, escape=False))

    def document(self, docname: str, packed: list[str]) -> DocumentRun:
        """The document's run, made from the groups the harness ``packed`` when new."""
        groups, optionflags = documents.unpack(packed)
        self.runs[docname] = run = DocumentRun(
            groups, DetachedCompiler(), optionflags, self._replayable_in(docname)
        )
        return run

    def _replayable_in(self, docname: str) -> Callable[[str, int], bool]:
        return lambda group, index: index not in self.unreplayable.get(docname, set())

    def on_soft_timeout(self, signum: int, frame: Any) -> None:
        """The harness's deadline, if it announced one; else the signal's own effect."""
        __tracebackhide__ = True  # where the example was is the frame this interrupted
        if not self.armed:
            return  # between examples: a deadline that came after its answer
        if self._deadline_announced():
            self.armed = False
            raise DeadlineExceeded(self.timeout, state.DEADLINE_SETTING)
        # not the harness's: end as the signal ends a process that does not handle it,
        # so that the harness tells it by its name (processes.crash_cause)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    def _deadline_announced(self) -> bool:
        """Did the harness send a deadline for the request in flight (before its signal)?"""
        while True:
            try:
                message = self.channel.receive(time.monotonic())
            except wire.ChannelBroken:
                return False
            if message is None:
                return False
            if message.get("op") == "deadline" and message["seq"] == self.seq:
                return True

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "describe":
            assert self.adapter is not None
            return describe(self.adapter, int(request["count"]), request.get("replay"))
        run = self.runs.get(request["doc"])
        if run is None:
            if "groups" not in request:
                return {"need_groups": True}
            run = self.document(request["doc"], request["groups"])
        group, variant = request["group"], request.get("variant")
        if op == "prepare":
            self.unreplayable[request["doc"]] = set(request["unreplayable"])
            try:
                run.prepare(group, int(request["index"]), variant)
            except SetupFailed as failure:
                return {"setup_failed": wire.result_data(failure.result)}
            rebuild = [[index, wire.result_data(r)] for index, r in run.replay_failures]
            return {"rebuild": rebuild}
        if op == "run":
            explorer = self.adapter.explorer if self.adapter is not None else None
            context: AbstractContextManager[object] = nullcontext()
            if variant is not None and explorer is not None:
                context = explorer.use(variant)  # the schedule this variant runs under
            with context:
                result = run.run_test(group, int(request["index"]), variant)
            return {"result": wire.result_data(result)}
        if op == "cleanup":
            return {"result": wire.result_data(run.cleanup(group, variant))}
        raise ValueError(f"unknown request {op!r}")

    def answer(self, message: dict[str, Any]) -> None:
        """Answer the request in flight, if this is still the executor and its channel."""
        if os.getpid() != self.pid:
            os._exit(0)  # a fork child of an example, back in the executor's code: not ours
        note = str(self.config["channel_note"])
        incoming, outgoing = self.channel.identity()
        if (incoming, outgoing) != self.identity:
            if outgoing != self.identity[1]:
                _broken(note)  # no way to answer: the exit status says why
            message = {"broken": "the example closed or replaced the executor's request pipe"}
        try:
            self.channel.send(message, self.seq)
        except wire.ChannelBroken:
            _broken(note)
        if "broken" in message:
            _broken(note)


def configure_like_sphinx(confdir: Path) -> None:
    """Run the project's ``conf.py`` here as Sphinx runs it (``eval_config_file``), once,
    before any test: under ``sphinx-build`` the tests run in the process that ran it, so
    what it does to that process (a folder put on ``sys.path``, an environment variable)
    is there for them. Its extensions' ``setup`` does not run here: the harness ran them
    reading the project, and what they give the tests travels in their groups."""
    conf = confdir / "conf.py"
    if conf.is_file():
        eval_config_file(conf, Tags())


def _broken(note: str | None = None) -> NoReturn:
    """End for a channel an example broke: the ``note`` file first, which tells the
    harness this exit status is the executor's own, not an example's ``os._exit``."""
    if note is not None:
        with contextlib.suppress(OSError):
            os.close(os.open(note, os.O_WRONLY | os.O_CREAT, 0o600))
    os._exit(CHANNEL_EXIT)


def files_of(modules: Iterable[Any]) -> dict[str, list[int]]:
    """The source files of ``modules``, each with its modification and change times and
    size: a copy that keeps an older modification time (``cp -p``) still changes ctime."""
    found: dict[str, list[int]] = {}
    for module in modules:
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            try:
                about = os.stat(path)
            except OSError:
                continue
            found[path] = [about.st_mtime_ns, about.st_ctime_ns, about.st_size]
    return found


def serve(executor: Executor, saved: state.Snapshot) -> None:
    while True:
        try:
            request = executor.channel.receive()
        except wire.ChannelBroken:
            return
        if request is None or request.get("op") == "deadline":
            continue  # a deadline that came after its answer
        executor.seq = request["seq"]
        answer: dict[str, Any]
        executor.armed = True
        try:
            answer = executor.handle(request)
        except OutcomeException as exc:  # the harness's soft deadline struck
            notes = [n for n in getattr(exc, "__notes__", []) if n.startswith(WHERE_NOTE)]
            answer = {"interrupted": wire.interruption_data(exc, notes[0] if notes else "")}
        except AdapterError as exc:
            answer = {"usage_error": str(exc)}
        except BaseException:  # noqa: BLE001 - told to the harness, which fails the item
            answer = {"error": traceback.format_exc()}
        finally:
            executor.armed = False
        answer["restored"] = state.restore(saved)
        # named in a crash report: a crash in one of them is blamed on the next example
        answer["threads"] = [t.name for t in threading.enumerate() if t is not _MAIN]
        executor.answer(answer)


def start(executor: Executor) -> dict[str, Any]:
    """Load the adapter: the first answer, ``ready`` or why not."""
    if sys.flags.optimize:
        return {
            "usage_error": f"the executor runs with asserts off (sys.flags.optimize is "
            f"{sys.flags.optimize}): a failing assert in an example would pass"
        }
    executor.armed = True  # a deadline while loading the adapter interrupts it too
    try:
        executor.load()
    except OutcomeException:
        return {
            "usage_error": f"implementation {executor.config['impl']!r} did not load within "
            f"--example-timeout ({executor.timeout:g} s)"
        }
    except AdapterError as exc:
        return {"usage_error": str(exc), "traceback": "".join(traceback.format_exception(exc))}
    except BaseException:  # noqa: BLE001
        return {"usage_error": traceback.format_exc()}
    finally:
        executor.armed = False
    return {"ready": os.getpid(), "code": executor.code}


def main(argv: list[str]) -> None:
    config: dict[str, Any] = json.loads(argv[1])
    requests, answers = int(config["requests"]), int(config["answers"])
    die_with_parent(int(config["harness"]))
    watch_harness(int(config["harness"]), keep=(requests, answers))
    try:
        hello = wire.receive_frame(requests, time.monotonic() + _HELLO_WAIT)
    except wire.ChannelBroken:
        hello = None
    if hello is None or not isinstance(hello.get("token"), str):
        _broken(str(config["channel_note"]))
    executor = Executor(config, wire.Channel(requests, answers, hello["token"]))
    dump = Path(config["dump"]).open("w", encoding="utf-8")  # noqa: SIM115 - open to the end
    state.arm_faulthandler(dump)
    state.install_soft_timeout(executor.on_soft_timeout)
    first = start(executor)
    executor.answer(first)
    if "ready" in first:
        fw = executor.adapter.fw if executor.adapter is not None else None
        serve(executor, state.snapshot(dump, fw))


if __name__ == "__main__":
    main(sys.argv)
