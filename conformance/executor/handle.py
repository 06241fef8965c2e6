"""The harness's side of an executor: start it, ask it, enforce deadlines from outside.

A request waits for its answer in short ticks, looking at the process in
between, so neither a crash (a fork child may still hold the channel open)
nor a hang goes unseen. At the item's deadline the executor is asked to
raise a timeout into the example (SOFT_SIGNAL); if it has not answered a
grace later, it is asked for every thread's stack (faulthandler, DUMP_SIGNAL)
and its whole process group is killed - also when it stopped itself
(SIGSTOP) or disarmed everything it could. A killed, crashed or tainted
executor is replaced by a fresh one at the next request.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from conformance.adapter import AdapterError
from conformance.executor import wire
from conformance.executor.processes import kill_group, make_folder
from conformance.executor.state import DUMP_SIGNAL, SOFT_SIGNAL
from conformance.executor.stories import crash_summary, hang_summary, still_running, trimmed_dump

#: seconds past the deadline before the executor is ended (at most)
HARD_DEADLINE_GRACE = 5.0
_TICK = 0.1
#: seconds the executor gets to write its stacks before it is killed
_DUMP_WAIT = 0.5


@dataclass(frozen=True)
class Launch:
    """What an executor needs to start: the project to read and the implementation."""

    srcdir: str
    confdir: str
    overrides: list[list[str]]
    cache_root: str
    impl: str
    timeout: float


class ExecutorFault(Exception):
    """The executor crashed, hung or broke its channel while running a request."""

    def __init__(self, kind: str, summary: str, dump: str = "") -> None:
        super().__init__(summary)
        #: "crash" or "hang" (a broken channel is a crash of the protocol)
        self.kind = kind
        self.summary = summary
        self.dump = dump


class ExecutorUnavailable(AdapterError):
    """The executor could not load the implementation: no example can run."""

    def __init__(self, message: str, told: str = "") -> None:
        super().__init__(message)
        #: the load failure with its traceback, for a run that is stopped by it
        self.traceback = told or message


class ExecutorHandle:
    """One executor at a time, started when first needed, replaced after a fault."""

    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self.folder = make_folder()
        self.process: subprocess.Popen[bytes] | None = None
        self.requests = self.answers = -1
        #: bumped for every executor started: namespaces of an earlier one are gone
        self.generation = 0
        self.deadline: float | None = None
        self.soft_sent = False
        self.tainted = False
        self.unavailable: ExecutorUnavailable | None = None
        #: threads the executor had besides its main one, after its last answer
        self.threads: list[str] = []
        self._read = {"stdout": 0, "stderr": 0}

    # -- deadlines (per item) ---------------------------------------------------------

    def arm(self, timeout: float) -> None:
        self.deadline = time.monotonic() + timeout if timeout else None
        self.soft_sent = False

    def disarm(self) -> None:
        self.deadline = None

    # -- the process --------------------------------------------------------------------

    def start(self) -> None:
        self.stop_process()
        self.generation += 1
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        config = {
            **asdict(self.launch),
            "requests": requests_read,
            "answers": answers_write,
            "harness": os.getpid(),
            "dump": str(self.folder / "dump.txt"),
        }
        with (self.folder / "stdout").open("wb") as out, (self.folder / "stderr").open("wb") as err:
            self.process = subprocess.Popen(  # noqa: S603 - this interpreter, our module
                [sys.executable, "-m", "conformance.executor.main", json.dumps(config)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                pass_fds=(requests_read, answers_write),
                start_new_session=True,
            )
        self._read = {"stdout": 0, "stderr": 0}
        os.close(requests_read)
        os.close(answers_write)
        self.requests, self.answers = requests_write, answers_read
        self.tainted = False
        self.threads = []
        began = time.monotonic()
        startup = self.launch.timeout + 60.0 if self.launch.timeout else None
        self.deadline, saved = (began + startup if startup else None), self.deadline
        try:
            ready = self._answer()
        except ExecutorFault as fault:
            raise AdapterError(
                f"the executor that imports implementation {self.launch.impl!r} ended before "
                f"it was ready: {fault.summary}\n{self.output()}"
            ) from None
        finally:  # the item's deadline does not count the executor's start-up
            self.deadline = None if saved is None else saved + time.monotonic() - began
        if "usage_error" in ready:
            self.stop_process()
            raise ExecutorUnavailable(str(ready["usage_error"]), str(ready.get("traceback", "")))

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The executor's answer to ``message``; a fresh executor first if needed.

        Raises:
            ExecutorFault: it crashed, hung past the deadline, or broke the channel.
        """
        if self.unavailable is not None:
            raise self.unavailable  # it failed to load once: it would again
        if self.process is None or self.tainted:
            try:
                self.start()
            except ExecutorUnavailable as error:
                self.unavailable = error
                raise
        with contextlib.suppress(wire.ChannelBroken):  # it is gone: _answer says how
            wire.send(self.requests, message)
        return self._answer()

    def _answer(self) -> dict[str, Any]:
        process = self.process
        assert process is not None
        while True:
            now = time.monotonic()
            tick = now + _TICK if self.deadline is None else min(now + _TICK, self.deadline)
            try:
                answer = wire.receive(self.answers, tick)
            except wire.ChannelBroken as broken:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(1.0)
                if process.poll() is None:
                    self._fault()
                    raise ExecutorFault(
                        "crash",
                        "the example broke the executor's channel (it wrote into or closed "
                        f"the executor's file descriptors: {broken}); the executor was ended",
                    ) from None
                raise self._crashed() from None
            if answer is not None:
                self.threads = list(answer.get("threads", []))
                return answer
            if process.poll() is not None:
                raise self._crashed()
            if self.deadline is not None and time.monotonic() >= self.deadline:
                if not self.soft_sent:
                    self.soft_sent = True
                    self._signal(SOFT_SIGNAL)
                    grace = min(HARD_DEADLINE_GRACE, max(1.0, self.launch.timeout))
                    self.deadline += grace
                else:
                    raise self._hung()

    def _signal(self, signum: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signum)

    def _crashed(self) -> ExecutorFault:
        process = self.process
        assert process is not None
        code = process.wait()
        dump = self._fault()
        return ExecutorFault("crash", crash_summary(code) + still_running(self.threads), dump)

    def _hung(self) -> ExecutorFault:
        self._signal(DUMP_SIGNAL)
        time.sleep(_DUMP_WAIT)
        dump = self._fault()
        return ExecutorFault("hang", hang_summary(self.launch.timeout), dump)

    def _fault(self) -> str:
        """End the executor's group; what faulthandler wrote (trimmed to the example)."""
        self.stop_process()
        path = self.folder / "dump.txt"
        text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        return trimmed_dump(text)

    def output(self) -> str:
        """What the executor wrote to stdout and stderr since the last call (decoded)."""
        parts = []
        for stream in ("stdout", "stderr"):
            path = self.folder / stream
            if not path.is_file():
                continue
            with path.open("rb") as file:
                file.seek(self._read[stream])
                data = file.read()
            self._read[stream] += len(data)
            if data.strip():
                parts.append(f"-- executor {stream} --\n" + data.decode("utf-8", "replace"))
        return "\n".join(parts)

    def stop_process(self) -> None:
        process, self.process = self.process, None
        for fd in (self.requests, self.answers):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.requests = self.answers = -1
        if process is not None:
            kill_group(process.pid)  # with what the examples and the adapter started
            process.wait()

    def stop(self) -> None:
        """At the end of the run: the executor, its group, and its files."""
        self.stop_process()
        shutil.rmtree(self.folder, ignore_errors=True)


__all__ = [
    "HARD_DEADLINE_GRACE",
    "ExecutorFault",
    "ExecutorHandle",
    "ExecutorUnavailable",
    "Launch",
]
