"""Record what a scripted run did, thread by thread: the data behind the docs' timelines.

:func:`record` runs a program with ``fw`` replaced by a recording stand-in: its
``fork`` wraps each task so that the task's thread and start and end times
are noted (``time.perf_counter``, ``threading.get_ident``), its ``wait`` notes
how long the caller waited, and its ``script`` notes each scripted call. The
implementation's runtime is not changed or consulted: what is recorded is
what the program's own calls observed, so the same recorder works for any
``fw`` (the docs record the reference's).

:meth:`Timeline.to_chrome` writes the Chrome trace-event format
(``{"traceEvents": [...]}``) that Perfetto, ``chrome://tracing`` and
``torch.profiler``'s exported traces use; :mod:`conformance.sphinx_ext.timeline_svg` draws
the same data as an SVG picture.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

#: kinds of span: a top-level scripted call, a forked task, a wait on a future
CALL, TASK, WAIT = "call", "task", "wait"


@dataclass(frozen=True)
class Span:
    """Something that took time on one thread (``lane``), in seconds from the start."""

    lane: int
    kind: str
    name: str
    start: float
    end: float
    #: the forked task this span is (TASK) or waits for (WAIT); -1 for a call
    task: int = -1


@dataclass(frozen=True)
class Fork:
    """A ``fork`` call: on which thread, when, and which task it started."""

    lane: int
    at: float
    task: int
    name: str


@dataclass
class Timeline:
    """A recorded run: one lane per thread that did something, in order of first appearance."""

    lanes: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    forks: list[Fork] = field(default_factory=list)

    @property
    def duration(self) -> float:
        return max((span.end for span in self.spans), default=0.0)

    def to_chrome(self, process: str = "forkwait scripted run") -> dict[str, Any]:
        """Chrome trace-event JSON: complete (``X``) events, fork instants and flow arrows."""
        events: list[dict[str, Any]] = [
            {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": process}}
        ]
        for lane, label in enumerate(self.lanes):
            events.append(
                {
                    "name": "thread_name",
                    "ph": "M",
                    "pid": 1,
                    "tid": lane + 1,
                    "args": {"name": label},
                }
            )
        for span in sorted(self.spans, key=lambda s: (s.start, -s.end)):
            events.append(
                {
                    "name": span.name,
                    "cat": span.kind,
                    "ph": "X",
                    "ts": _us(span.start),
                    "dur": _us(span.end - span.start),
                    "pid": 1,
                    "tid": span.lane + 1,
                }
            )
        starts = {span.task: span for span in self.spans if span.kind == TASK}
        for fork in self.forks:
            where = {"pid": 1, "tid": fork.lane + 1, "ts": _us(fork.at)}
            events.append(
                {"name": f"fork {fork.name}", "cat": "fork", "ph": "i", "s": "t", **where}
            )
            task = starts.get(fork.task)
            if task is not None:  # an arrow from the fork to the task's start
                flow = {"name": "fork", "cat": "fork", "id": fork.task}
                events.append({**flow, "ph": "s", **where})
                events.append(
                    {**flow, "ph": "f", "bp": "e", "pid": 1, "tid": task.lane + 1}
                    | {"ts": _us(task.start)}
                )
        return {"traceEvents": events, "displayTimeUnit": "ms"}


def _us(seconds: float) -> float:
    return round(seconds * 1e6, 1)


def _describe(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    name = getattr(func, "__name__", type(func).__name__)
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(shown)})"


class Recorder:
    """A stand-in ``fw`` module that notes forks, tasks, waits and scripted calls."""

    def __init__(self, fw: ModuleType, caller: str = "caller") -> None:
        self._fw = fw
        self._lock = threading.Lock()
        self._threads: dict[int, int] = {}
        self._origin = time.perf_counter()
        self._futures: dict[int, tuple[int, str]] = {}  # id(future) -> task, name
        self._caller = caller
        self.timeline = Timeline()

    def module(self) -> ModuleType:
        """``fw`` with ``fork``, ``wait`` and ``script`` recorded, everything else as it is."""
        proxy = ModuleType(self._fw.__name__)
        proxy.__dict__.update({k: v for k, v in vars(self._fw).items() if not k.startswith("__")})
        proxy.fork = self.fork  # type: ignore[attr-defined]
        proxy.wait = self.wait  # type: ignore[attr-defined]
        proxy.script = self.script  # type: ignore[attr-defined]
        return proxy

    def _now(self) -> float:
        return time.perf_counter() - self._origin

    def _lane(self) -> int:
        ident = threading.get_ident()
        with self._lock:
            lane = self._threads.get(ident)
            if lane is None:
                lane = self._threads[ident] = len(self._threads)
                name = self._caller if lane == 0 else threading.current_thread().name
                self.timeline.lanes.append(name)
            return lane

    def _add(self, item: Span | Fork) -> None:
        with self._lock:
            if isinstance(item, Span):
                self.timeline.spans.append(item)
            else:
                self.timeline.forks.append(item)

    def fork(self, func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        name = _describe(func, args, kwargs)
        lane = self._lane()
        with self._lock:
            task = len(self._futures)

        def recorded_task(*task_args: Any, **task_kwargs: Any) -> Any:
            task_lane, start = self._lane(), self._now()
            try:
                return func(*task_args, **task_kwargs)
            finally:
                self._add(Span(task_lane, TASK, name, start, self._now(), task))

        recorded_task.__name__ = getattr(func, "__name__", "task")
        at = self._now()
        future = self._fw.fork(recorded_task, *args, **kwargs)
        with self._lock:
            self._futures[id(future)] = (task, name)
        self._add(Fork(lane, at, task, name))
        return future

    def wait(self, future: Any, /) -> Any:
        task, name = self._futures.get(id(future), (-1, "a future"))
        lane, start = self._lane(), self._now()
        try:
            return self._fw.wait(future)
        finally:
            self._add(Span(lane, WAIT, f"wait {name}", start, self._now(), task))

    def script(self, obj: Any, /, **options: Any) -> Any:
        compiled = self._fw.script(obj, **options)
        name = getattr(obj, "__name__", type(obj).__name__)

        def recorded_call(*args: Any, **kwargs: Any) -> Any:
            lane, start = self._lane(), self._now()
            try:
                return compiled(*args, **kwargs)
            finally:
                self._add(Span(lane, CALL, _describe(obj, args, kwargs), start, self._now()))

        recorded_call.__name__ = name
        return recorded_call


def record(program: str, fw: ModuleType, filename: str = "<timeline>") -> Timeline:
    """Run ``program`` (Python source) with ``fw`` recorded; return what happened."""
    recorder = Recorder(fw)
    recorder._lane()  # the thread that runs the program is the caller, lane 0
    namespace: dict[str, Any] = {"__name__": "forkwait_timeline", "fw": recorder.module()}
    exec(compile(program, filename, "exec"), namespace)  # noqa: S102 - the docs' own program
    return _in_fork_order(recorder.timeline)


def _in_fork_order(timeline: Timeline) -> Timeline:
    """The caller's lane first, then each thread in the order of the first task it ran.

    Threads pick up tasks in whichever order they wake; ordering lanes by the
    tasks' fork order gives the same picture from run to run.
    """
    first: dict[int, int] = {0: -1}
    for span in timeline.spans:
        if span.kind == TASK:
            first[span.lane] = min(first.get(span.lane, span.task), span.task)
    order = sorted(range(len(timeline.lanes)), key=lambda lane: (first.get(lane, 1 << 30), lane))
    new = {old: index for index, old in enumerate(order)}
    spans = sorted(
        (replace(span, lane=new[span.lane]) for span in timeline.spans),
        key=lambda s: (s.lane, s.start, -s.end),
    )
    return Timeline(
        lanes=[timeline.lanes[old] for old in order],
        spans=spans,
        forks=[replace(fork, lane=new[fork.lane]) for fork in timeline.forks],
    )
