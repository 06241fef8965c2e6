"""The harness's side of an executor: start it, ask it, enforce deadlines from outside.

A request waits for its answer in short ticks, looking at the process in
between, so neither a crash (a fork child may still hold the channel open)
nor a hang goes unseen. An answer must name the request in flight (wire.py);
anything else the executor sends - a frame that does not, an end of file, a
malformed answer - fails the example in flight as a broken channel, never the
harness. At the item's deadline the harness announces it on the channel and
asks the executor to raise a timeout into the example (SOFT_SIGNAL); if it
has not answered a grace later, it is asked for every thread's stack
(faulthandler, DUMP_SIGNAL) and its whole process group is killed - also when
it stopped itself (SIGSTOP) or disarmed everything it could. A killed,
crashed or tainted executor is replaced by a fresh one at the next request;
a fresh one that loaded other code than the first (the implementation's
files changed during the run) is refused.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass
from typing import Any

from conformance.adapter import AdapterError
from conformance.executor import wire
from conformance.executor.processes import (
    AFTER_A_CRASH,
    AFTER_ENDING_IT,
    CHANNEL_NOTE,
    STREAMS,
    crash_cause,
    hang_cause,
    kill_group,
    make_folder,
    read_new,
    size_of,
    spawn,
    still_running,
    trimmed_dump,
)
from conformance.executor.state import DUMP_SIGNAL, SOFT_SIGNAL
from conformance.sphinx_doctest.outcome import FailureKind

#: seconds past the deadline before the executor is ended (at most)
HARD_DEADLINE_GRACE = 5.0
_TICK = 0.1
#: seconds the executor gets to write its stacks before it is killed
_DUMP_WAIT = 0.5
#: characters of each of the executor's streams kept per phase of an example
OUTPUT_SHOWN = 64 * 1024
#: bytes of an output file past which it is emptied once read
_EMPTIED_PAST = 16 * 1024 * 1024


@dataclass(frozen=True)
class Launch:
    """What an executor needs to start: the folder of the project's ``conf.py``, the
    implementation and the deadline of its requests (each document's tests come with
    the first request about it)."""

    confdir: str
    impl: str
    timeout: float


class ExecutorFault(Exception):
    """The executor crashed, hung or broke its channel while running a request."""

    def __init__(
        self, kind: FailureKind, cause: str, aftermath: str, dump: str = "", threads: str = ""
    ) -> None:
        summary = f"{cause}; {aftermath}{threads}"
        super().__init__(summary)
        #: CRASH or HANG (a broken channel is a crash of the protocol)
        self.kind = kind
        #: what happened, in one line: the failure's cause
        self.cause = cause
        #: the cause, what the harness did next, and the threads that may be to blame
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
        self.channel: wire.Channel | None = None
        #: the sequence number of the last request (0: the executor's start-up)
        self.seq = 0
        #: bumped for every executor started: namespaces of an earlier one are gone
        self.generation = 0
        self.deadline: float | None = None
        self.soft_sent = False
        self.tainted = False
        self.unavailable: ExecutorUnavailable | None = None
        #: threads the executor had besides its main one, after its last answer
        self.threads: list[str] = []
        #: the implementation's files as the run's first executor loaded them
        self.code: dict[str, list[int]] | None = None
        self._read = dict.fromkeys(STREAMS, 0)
        self._dumped = 0

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
        if not self.folder.is_dir():  # removed under us (by an example, or a tmp cleaner)
            self.folder = make_folder()
        self.process, answers, requests = spawn(
            "conformance.executor.main", self.folder, asdict(self.launch)
        )
        self._read = dict.fromkeys(STREAMS, 0)
        self._dumped = 0
        self.channel = wire.Channel(answers, requests, secrets.token_hex(16))
        self.seq = 0
        self.tainted = False
        self.threads = []
        with contextlib.suppress(wire.ChannelBroken):  # it is gone: _answer says how
            wire.send_frame(requests, {"token": self.channel.token})
        began = time.monotonic()
        startup = self.launch.timeout + 60.0 if self.launch.timeout else None
        self.deadline, saved = (began + startup if startup else None), self.deadline
        try:
            ready = self._answer()
        except ExecutorFault as fault:
            raise AdapterError(
                f"the executor that imports implementation {self.launch.impl!r} ended before "
                f"it was ready: {fault.cause}\n{self.output()}"
            ) from None
        finally:  # the item's deadline does not count the executor's start-up
            self.deadline = None if saved is None else saved + time.monotonic() - began
        if "usage_error" in ready:
            self.stop_process()
            raise ExecutorUnavailable(str(ready["usage_error"]), str(ready.get("traceback", "")))
        self._same_code(ready.get("code"))

    def _same_code(self, code: object) -> None:
        """The run's first executor's code is the run's: a later one must load the same."""
        if not isinstance(code, dict):
            return
        if self.code is None:
            self.code = code
            return
        changed = sorted(path for path, seen in code.items() if self.code.get(path, seen) != seen)
        if changed:
            self.stop_process()
            raise ExecutorUnavailable(
                f"implementation {self.launch.impl!r} changed during the run: "
                f"{', '.join(changed[:5])}{' ...' if len(changed) > 5 else ''} changed after "
                "the run's first executor imported it, so the examples after this point would "
                "run other code than the report names; run again once it stays unchanged"
            )

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
        assert self.channel is not None
        self.seq += 1
        self._dumped = size_of(self.folder / "dump.txt")
        with contextlib.suppress(wire.ChannelBroken):  # it is gone: _answer says how
            self.channel.send(message, self.seq)
        return self._answer()

    def _answer(self) -> dict[str, Any]:
        process, channel = self.process, self.channel
        assert process is not None
        assert channel is not None
        while True:
            now = time.monotonic()
            tick = now + _TICK if self.deadline is None else min(now + _TICK, self.deadline)
            try:
                answer = channel.receive(tick)
                if answer is not None and answer["seq"] != self.seq:
                    raise wire.ChannelBroken(
                        f"an answer to request {answer['seq']}, not to {self.seq}"
                    )
            except wire.ChannelBroken as broken:
                raise self._broken(str(broken)) from None
            if answer is not None:
                if "broken" in answer:
                    raise self._broken(str(answer["broken"]))
                threads = answer.get("threads", [])
                self.threads = [str(t) for t in threads] if isinstance(threads, list) else []
                return answer
            if process.poll() is not None:
                raise self._crashed()
            if self.deadline is not None and time.monotonic() >= self.deadline:
                if not self.soft_sent:
                    self.soft_sent = True
                    self._announce_deadline()
                    grace = min(HARD_DEADLINE_GRACE, max(1.0, self.launch.timeout))
                    self.deadline += grace
                else:
                    raise self._hung()

    def _announce_deadline(self) -> None:
        """The deadline frame first (the executor tells the harness's SOFT_SIGNAL from
        one sent by anyone else by it), then the signal."""
        assert self.channel is not None
        with contextlib.suppress(wire.ChannelBroken):
            self.channel.send({"op": "deadline"}, self.seq)
        self._signal(SOFT_SIGNAL)

    def _broken(self, why: str) -> ExecutorFault:
        """A fault for a channel the example broke; a crash if the executor is gone (it
        ended the executor, and the channel with it: its exit status says how)."""
        process = self.process
        assert process is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(1.0)
        if process.poll() is not None:
            return self._crashed()
        self._fault()
        return ExecutorFault(
            FailureKind.CRASH,
            f"the example broke the executor's channel ({why}: it wrote into, closed or "
            "replaced the executor's file descriptors)",
            AFTER_ENDING_IT,
        )

    def _signal(self, signum: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signum)

    def _crashed(self) -> ExecutorFault:
        process = self.process
        assert process is not None
        code = process.wait()
        channel_closed = (self.folder / CHANNEL_NOTE).exists()
        dump = self._fault()
        culprit = "the example" if self.seq else f"importing implementation {self.launch.impl!r}"
        cause = crash_cause(code, channel_closed, culprit)
        return ExecutorFault(
            FailureKind.CRASH, cause, AFTER_A_CRASH, dump, still_running(self.threads)
        )

    def _hung(self) -> ExecutorFault:
        self._signal(DUMP_SIGNAL)
        time.sleep(_DUMP_WAIT)
        dump = self._fault()
        return ExecutorFault(
            FailureKind.HANG, hang_cause(self.launch.timeout), AFTER_ENDING_IT, dump
        )

    def _fault(self) -> str:
        """End the executor's group; what faulthandler wrote during this request (trimmed
        to the example)."""
        self.stop_process()
        text, _ = read_new(self.folder / "dump.txt", self._dumped, OUTPUT_SHOWN)
        return trimmed_dump(text)

    def output(self) -> str:
        """What the executor wrote to stdout and stderr since the last call (decoded; the
        head and tail of each, at most OUTPUT_SHOWN characters, whatever it printed)."""
        parts = []
        for stream in STREAMS:
            path = self.folder / stream
            text, self._read[stream] = read_new(path, self._read[stream], OUTPUT_SHOWN)
            if self._read[stream] > _EMPTIED_PAST:  # a flood on disk: what was read goes
                with contextlib.suppress(OSError):
                    os.truncate(path, 0)
                self._read[stream] = 0
            if text.strip():
                parts.append(f"-- executor {stream} --\n{text}")
        return "\n".join(parts)

    def stop_process(self) -> None:
        process, self.process = self.process, None
        channel, self.channel = self.channel, None
        for fd in channel.fds if channel is not None else ():
            with contextlib.suppress(OSError):
                os.close(fd)
        if process is not None:
            kill_group(process.pid)  # with what the examples and the adapter started
            process.wait()

    def stop(self) -> None:
        """At the end of the run: the executor, its group, and its files."""
        self.stop_process()
        shutil.rmtree(self.folder, ignore_errors=True)


__all__ = [
    "HARD_DEADLINE_GRACE",
    "OUTPUT_SHOWN",
    "ExecutorFault",
    "ExecutorHandle",
    "ExecutorUnavailable",
    "Launch",
]
