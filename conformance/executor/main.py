"""The executor process: imports the adapter, runs examples on request, answers as data.

Started by handle.py as ``python -m conformance.executor.main CONFIG`` with
two pipe ends of its own (``pass_fds``); its stdout and stderr are files the
harness reads. Requests name a test by (document, group, test index,
variant); the answers carry doctest's results. One executor runs many
examples (an engine's costly start-up is paid once); the harness replaces it
after a crash, a hang or a timeout, and the new one rebuilds a group's
namespace by replaying its earlier tests, reporting any replay that fails.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from _pytest.config import parse_warning_filter
from _pytest.outcomes import OutcomeException, fail

from conformance.adapter import Adapter, AdapterError, load_adapter
from conformance.executor import state, wire
from conformance.executor.describe import describe
from conformance.executor.implementation import select
from conformance.executor.processes import die_with_parent, watch_harness
from conformance.executor.results import result_data
from conformance.sphinx_doctest.document_run import DocumentRun, SetupFailed
from conformance.sphinx_doctest.model import document_groups
from conformance.sphinx_doctest.project import SphinxProject, SphinxSource, read_project
from conformance.sphinx_doctest.runners import WHERE_NOTE

_MAIN = threading.main_thread()


class Executor:
    """The executor's state: the project, one DocumentRun per document, the adapter."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.timeout = float(config["timeout"])
        self.project: SphinxProject | None = None
        self.adapter: Adapter | None = None
        self.runs: dict[str, DocumentRun] = {}
        self.unreplayable: dict[str, set[int]] = {}
        self.armed = False

    def load(self) -> None:
        config = self.config
        source = SphinxSource(Path(config["confdir"]), tuple(map(tuple, config["overrides"])))
        self.project = read_project(Path(config["srcdir"]), source, Path(config["cache_root"]))
        self.adapter = load_adapter(config["impl"], deadline=self.timeout)
        select(self.adapter)
        for warning_filter in self.adapter.warning_filters:
            warnings.filterwarnings(*parse_warning_filter(warning_filter, escape=False))

    def document(self, docname: str) -> DocumentRun:
        run = self.runs.get(docname)
        if run is None:
            assert self.project is not None
            groups = document_groups(self.project, docname)
            self.project.drain_warnings()
            self.runs[docname] = run = DocumentRun(
                groups, self.project.builder, self._replayable_in(docname)
            )
        return run

    def _replayable_in(self, docname: str) -> Callable[[str, int], bool]:
        return lambda group, index: index not in self.unreplayable.get(docname, set())

    def on_soft_timeout(self, signum: int, frame: Any) -> None:
        if self.armed:
            self.armed = False
            fail(f"Timeout (>{self.timeout:g}s) from the executor's deadline.")

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "describe":
            assert self.adapter is not None
            return describe(self.adapter, int(request["count"]), request.get("replay"))
        run = self.document(request["doc"])
        group, variant = request["group"], request.get("variant")
        if op == "prepare":
            self.unreplayable[request["doc"]] = set(request["unreplayable"])
            try:
                run.prepare(group, int(request["index"]), variant)
            except SetupFailed as failure:
                return {"setup_failed": result_data(failure.result)}
            return {"rebuild": [[index, result_data(r)] for index, r in run.replay_failures]}
        if op == "run":
            explorer = self.adapter.explorer if self.adapter is not None else None
            context: AbstractContextManager[object] = nullcontext()
            if variant is not None and explorer is not None:
                context = explorer.use(variant)  # the schedule this variant runs under
            with context:
                return {"result": result_data(run.run_test(group, int(request["index"]), variant))}
        if op == "cleanup":
            return {"result": result_data(run.cleanup(group, variant))}
        raise ValueError(f"unknown request {op!r}")


def serve(executor: Executor, requests: int, answers: int, saved: state.Snapshot) -> None:
    while True:
        try:
            request = wire.receive(requests)
        except wire.ChannelBroken:
            return
        if request is None:
            continue
        answer: dict[str, Any]
        executor.armed = True
        try:
            answer = executor.handle(request)
        except OutcomeException as exc:  # the harness's soft deadline struck
            notes = [n for n in getattr(exc, "__notes__", []) if n.startswith(WHERE_NOTE)]
            answer = {"interrupted": str(exc.msg), "where": notes[0] if notes else ""}
        except AdapterError as exc:
            answer = {"usage_error": str(exc)}
        except BaseException:  # noqa: BLE001 - told to the harness, which fails the item
            answer = {"error": traceback.format_exc()}
        finally:
            executor.armed = False
        answer["restored"] = state.restore(saved)
        # named in a crash's story: a crash in one of them is blamed on the next example
        answer["threads"] = [t.name for t in threading.enumerate() if t is not _MAIN]
        try:
            wire.send(answers, answer)
        except wire.ChannelBroken:
            return


def main(argv: list[str]) -> None:
    config: dict[str, Any] = json.loads(argv[1])
    requests, answers = int(config["requests"]), int(config["answers"])
    die_with_parent(int(config["harness"]))
    watch_harness(int(config["harness"]), keep=(requests, answers))
    dump = Path(config["dump"]).open("w", encoding="utf-8")  # noqa: SIM115 - open to the end
    state.arm_faulthandler(dump)
    executor = Executor(config)
    state.install_soft_timeout(executor.on_soft_timeout)
    executor.armed = True  # a deadline while loading the adapter interrupts it too
    try:
        executor.load()
    except OutcomeException:
        wire.send(answers, {"usage_error": f"implementation {config['impl']!r} did not load "
                            f"within --example-timeout ({executor.timeout:g} s)"})  # fmt: skip
        return
    except AdapterError as exc:
        told = "".join(traceback.format_exception(exc))
        wire.send(answers, {"usage_error": str(exc), "traceback": told})
        return
    except BaseException:  # noqa: BLE001
        wire.send(answers, {"usage_error": traceback.format_exc()})
        return
    finally:
        executor.armed = False
    wire.send(answers, {"ready": os.getpid()})
    serve(executor, requests, answers, state.snapshot(dump))


if __name__ == "__main__":
    main(sys.argv)
