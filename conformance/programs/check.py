"""Run generated programs against ``fw`` and compare them with their sequential meaning.

hypothesis draws programs (shapes.py), each is rendered to source
(source.py) and run three ways: with the sequential meaning
(sequential.py), under ``fw`` from plain Python, and under ``fw`` as a
scripted call. Results must agree (a value, or "raised"), and every task
reached through waits and direct calls must have run exactly once by the
time the program returns, no task more than once. On a mismatch hypothesis
shrinks the program, and the least one is printed as runnable source, with
the seed that finds it again: the source that ran, so that it fails alone as
it failed here. A failure says the exception and those it came from, and for
one about pickling, which part of which task does not pickle (pickling.py).
The seed is fixed unless the run asks for another (``forkwait-conformance
--probe-seed N``; seed.py).
"""

from __future__ import annotations

import functools
import linecache
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from conformance.programs.pickling import looks_like_pickling, unpicklable_part
from conformance.programs.seed import chosen_seed
from conformance.programs.sequential import SequentialFw
from conformance.programs.shapes import Task, programs
from conformance.programs.source import Rendered, render

_MODES = ("plain", "scripted")
#: the longest account of an exception a program raised
_ERROR_LIMIT = 600


@dataclass(frozen=True)
class Outcome:
    """What one run of a program gave, and how often each task ran."""

    result: str
    ran: Counter[int]
    #: the exception a "raised" result came from (shown, never compared: scripted code need
    #: not keep a failure's type, ERR-TYPE-KEPT-1)
    error: str = ""


@dataclass(frozen=True)
class Mismatch:
    rendered: Rendered
    x: int
    mode: str
    expected: str
    got: Outcome

    def describe(self, seed: int) -> str:
        runs = self.got.ran
        wrong = sorted(
            n for n in range(self.rendered.tasks)
            if runs[n] > 1 or (n in self.rendered.awaited and runs[n] != 1)
        )  # fmt: skip
        counts = ", ".join(f"t{n} ran {runs[n]} time(s)" for n in wrong)
        call = "fw.script(t0)(x)" if self.mode == "scripted" else "t0(x)"
        return "\n".join([
            f"a generated program (seed {seed}; --probe-seed {seed} finds it again) gives "
            "another result than its sequential meaning:",
            "",
            "# fw: the implementation under test (as in the spec's examples)",
            self.rendered.source.rstrip(),
            "",
            f"x = {self.x}",
            f"print({call}, sorted(ran))",
            "",
            f"expected (fork as a direct call): {self.expected}",
            f"got ({self.mode}): {self.got.result}"
            + (f" ({self.got.error})" if self.got.error else "")
            + (f"; {counts}" if counts else ""),
        ])  # fmt: skip


def run_program(rendered: Rendered, fw: Any, x: int, mode: str) -> Outcome:
    """Run ``rendered`` under ``fw`` (``mode``: plain or scripted); its outcome."""
    # a module name and source in linecache, as a file would give: compilers such as
    # TorchScript name functions by their module and read their source
    filename = f"<generated program {abs(hash(rendered.source))}>"
    linecache.cache[filename] = (
        len(rendered.source),
        None,
        rendered.source.splitlines(keepends=True),
        filename,
    )
    namespace: dict[str, Any] = {"__name__": "forkwait_generated_program", "fw": fw}
    exec(compile(rendered.source, filename, "exec"), namespace)  # noqa: S102
    root = namespace["t0"]
    error = ""
    try:
        value = fw.script(root)(x) if mode == "scripted" else root(x)
        result = f"returned {value!r}"
    except Exception as exc:  # noqa: BLE001 - any type: scripted code need not keep it
        result, error = "raised", told(exc, namespace, rendered.tasks)
    with namespace["lock"]:  # tasks nobody waited on may still be noting
        return Outcome(result, Counter(namespace["ran"]), error)


def told(error: BaseException, namespace: dict[str, Any], tasks: int) -> str:
    """``error``, the exceptions it came from, and for a pickling failure the part of a
    task (``t0`` ... ``t<tasks - 1>``) that does not pickle."""
    parts = [f"{type(error).__name__}: {error}"]
    seen = {id(error)}
    cause = error.__cause__ or error.__context__
    while cause is not None and id(cause) not in seen and len(parts) < 4:
        seen.add(id(cause))
        parts.append(f"from {type(cause).__name__}: {cause}")
        cause = cause.__cause__ or cause.__context__
    if looks_like_pickling(error):
        part = next(
            (
                found
                for number in [*range(1, tasks), 0]  # the forked tasks, then the root
                if (found := unpicklable_part(f"t{number}", namespace[f"t{number}"]))
            ),
            None,
        )
        parts.append(f"what does not pickle: {part}" if part else "every task pickles here")
    text = "; ".join(" ".join(part.split()) for part in parts)
    return text if len(text) <= _ERROR_LIMIT else text[: _ERROR_LIMIT - 3] + "..."


def compare(program: Task, fw: Any, x: int) -> Mismatch | None:
    """The first way ``fw`` runs ``program`` unlike its sequential meaning, if any."""
    rendered = render(program)
    expected = run_program(rendered, SequentialFw(), x, "plain").result
    for mode in _MODES:
        got = run_program(rendered, fw, x, mode)
        once = all(got.ran[n] == 1 for n in rendered.awaited)
        if got.result != expected or not once or any(c > 1 for c in got.ran.values()):
            return Mismatch(rendered, x, mode, expected, got)
    return None


def _over_programs(
    seed: int, examples: int, *phases: Phase
) -> Callable[[Callable[[Task, int], None]], Callable[[], None]]:
    """A hypothesis test over the programs and inputs ``seed`` draws: one definition for
    the pass that records them and the pass that shrinks a failure, so both draw alike."""
    chosen = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=False,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
    )

    def decorate(test: Callable[[Task, int], None]) -> Callable[[], None]:
        drawn: Callable[[], None] = given(programs(), st.integers(0, 9))(test)
        return chosen(hypothesis_seed(seed)(drawn))

    return decorate


@functools.lru_cache(maxsize=4)
def drawn_programs(seed: int, examples: int) -> tuple[tuple[Task, int], ...]:
    """The programs (and inputs) hypothesis draws for ``seed``, drawn once per process.

    Drawing costs about four times running them (0.42 s of 0.53 s, profiled), and an
    explored requirement runs this probe once per schedule in one process: the
    schedules then run the same programs, each for the price of running them.
    """
    drawn: list[tuple[Task, int]] = []

    @_over_programs(seed, examples, Phase.explicit, Phase.generate)
    def record(program: Task, x: int) -> None:
        drawn.append((program, x))

    record()
    return tuple(drawn)


def check_programs(fw: Any, *, examples: int = 50, seed: int | None = None) -> None:
    """Print one line: every program agrees, or the least one that does not, as source."""
    chosen = seed if seed is not None else chosen_seed()
    first = next(
        (
            mismatch
            for program, x in drawn_programs(chosen, examples)
            if (mismatch := compare(program, fw, x)) is not None
        ),
        None,
    )
    if first is None:
        print("every generated program gives its sequential result, plain and scripted")
        return
    # hypothesis draws the same programs again, then shrinks the first that fails
    found: list[Mismatch] = []

    @_over_programs(chosen, examples, Phase.explicit, Phase.generate, Phase.shrink)
    def agrees(program: Task, x: int) -> None:
        mismatch = compare(program, fw, x)
        if mismatch is not None:
            found.append(mismatch)
            raise AssertionError(mismatch.expected)

    try:
        agrees()
    except AssertionError:
        if not found:
            raise
    # the least failure hypothesis replayed last; the first one found if it did not recur
    print((found[-1] if found else first).describe(chosen))


__all__ = ["check_programs", "compare", "drawn_programs", "run_program", "told"]
