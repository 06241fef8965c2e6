"""Controlled schedules against the thread pool: the same 10,000-fork programs, in one run.

For each program, the time of a top-level scripted call under a controlled
schedule over the time of the same call on the pool, min and median of
interleaved repeats. The figure of merit: ``random:1`` on the fork+wait loop
of ``overhead.py`` within 5x the pool. Two programs:

* loop: ``wait(fork(trivial, i))`` 10,000 times;
* fan-out: 10,000 forks, then 10,000 waits.

A step of a schedule costs O(log N), so the cost per fork must not grow with
the number of forks: the last line compares 1,000 and 10,000 forks.

A switch between greenlet carriers (the stacks of a controlled run, on the
calling thread) is needed whenever the policy picks a task that is not the one
the running task waits on: ``fifo`` never needs one on these programs, ``lifo``
two per fork, ``random`` two on half the forks. Carriers switch without the OS,
which is what keeps ``random`` within its target.

Run: ``python benchmarks/schedules.py [--quick]``
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from _timing import interleaved

import reference_impl as fw

SCHEDULES = ["random:1", "fifo", "lifo", "pct:1:3"]


def trivial(x: int) -> int:
    return x + 1


def loop(n: int) -> int:
    total = 0
    for i in range(n):
        total += fw.wait(fw.fork(trivial, i))
    return total


def fan_out(n: int) -> int:
    futures = [fw.fork(trivial, i) for i in range(n)]
    return sum(fw.wait(future) for future in futures)


def compare(program: Callable[[int], int], n: int, repeats: int) -> None:
    on_pool = fw.script(program)
    contenders: dict[str, Callable[[], object]] = {"pool": lambda: on_pool(n)}
    for spec in SCHEDULES:
        scheduled = fw.script(program, schedule=spec)
        contenders[spec] = lambda scheduled=scheduled: scheduled(n)  # type: ignore[misc]
    expected = program(n)  # plain Python
    assert all(run() == expected for run in contenders.values())
    timings = interleaved(repeats, contenders)
    pool = timings["pool"]
    per_fork = pool.per(n)
    print(f"\n{program.__name__}, {n:,} forks: pool {per_fork.min * 1e6:.2f} us/fork (min)")
    for spec in SCHEDULES:
        mark = "  <- target: within 5x" if spec == "random:1" else ""
        print(f"   {spec:9} / pool = {timings[spec].ratio(pool)}{mark}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (CI smoke run)")
    args = parser.parse_args()
    repeats = 3 if args.quick else 9
    n = 10_000
    print(f"reference_impl {fw.__version__}, {fw.get_num_threads()} workers")
    compare(loop, n, repeats)
    compare(fan_out, n, repeats)

    small = fw.script(loop, schedule="random:1")
    timings = interleaved(repeats, {"1k": lambda: small(1_000), "10k": lambda: small(10_000)})
    print(
        "\nrandom:1, loop: cost per fork at 10,000 forks / at 1,000 = "
        f"{timings['10k'].per(10_000).ratio(timings['1k'].per(1_000))}  (quadratic: 10x)"
    )


if __name__ == "__main__":
    main()
