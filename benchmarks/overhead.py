"""Fork/wait overhead and parallel speed-up of the reference, against peers in one run.

Prints ratios, measured now on this machine: fork+wait of a trivial task under
``script`` vs a ``ThreadPoolExecutor`` round trip, a direct call, a bare
``concurrent.futures.Future()`` + ``set_result`` + ``result()`` round trip
(target: at most 0.75x, a fork+wait well under the cost of merely having a
thread-safe future; the reference gives speed back for clarity down to that
line, not below) and, when torch is installed, TorchScript's own fork+wait in
a scripted loop (target: at most 0.2x of it); 2 and 8 forks of GIL-releasing
work vs running it sequentially; nested ``fib(18)`` scripted vs the same code
in plain Python, where forks are synchronous (target: at most 1.5x). Section 1
takes turns between its contenders and reports the minimum and the median, so
a noisy neighbour weighs on all of them alike.

Run: ``python benchmarks/overhead.py [--quick]``
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import time
import warnings
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from _timing import interleaved, median_seconds

import reference_impl as fw

X = TypeVar("X")


def trivial(x: int) -> int:
    return x + 1


def forked_loop(n: int) -> int:
    total = 0
    for i in range(n):
        total += fw.wait(fw.fork(trivial, i))
    return total


def executor_loop(pool: ThreadPoolExecutor, n: int) -> int:
    total = 0
    for i in range(n):
        total += pool.submit(trivial, i).result()
    return total


def bare_future_loop(n: int) -> int:
    """The same work through a bare thread-safe future: made, set, read."""
    total = 0
    for i in range(n):
        future: Future[int] = Future()
        future.set_result(trivial(i))
        total += future.result()
    return total


def direct_loop(n: int) -> int:
    total = 0
    for i in range(n):
        total += trivial(i)
    return total


def torchscript_loop() -> Callable[[int], int] | None:
    """TorchScript's fork+wait: a scripted loop forking a trivial scripted function; or None."""
    try:
        with warnings.catch_warnings():  # torch's CPU wheel warns when numpy is absent
            warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
            import torch  # noqa: PLC0415 - optional, and slow to import
    except ImportError:
        return None

    ts_trivial = torch.jit.script(trivial)

    def ts_forked_loop(n: int) -> int:
        total = 0
        for i in range(n):
            total += torch.jit.wait(torch.jit.fork(ts_trivial, i))
        return total

    loop: Callable[[int], int] = torch.jit.script(ts_forked_loop)
    for _ in range(3):  # the profiling executor optimises the graph over the first calls
        loop(100)
    assert loop(100) == forked_loop(100)
    return loop


def run_each(work: Callable[[X], object], items: list[X]) -> list[object]:
    """The sequential baseline: the same calls, one after the other."""
    return [work(item) for item in items]


def sha_work(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()  # releases the GIL for large buffers


def fork_all(work: Callable[[bytes], str], items: list[bytes]) -> list[str]:
    futures = [fw.fork(work, item) for item in items]
    return [fw.wait(future) for future in futures]


def sleep_work(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def fork_sleeps(items: list[float]) -> list[float]:
    futures = [fw.fork(sleep_work, item) for item in items]
    return [fw.wait(future) for future in futures]


def fib(n: int) -> int:
    if n < 2:
        return n
    left, right = fw.fork(fib, n - 1), fw.fork(fib, n - 2)
    return fw.wait(left) + fw.wait(right)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (CI smoke run)")
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    n = 2_000 if args.quick else 20_000
    print(f"reference_impl {fw.__version__}, {fw.get_num_threads()} workers, {os.cpu_count()} CPUs")

    scripted_loop = fw.script(forked_loop)
    scripted_loop(100)
    torchscript = torchscript_loop()
    with ThreadPoolExecutor(max_workers=fw.get_num_threads()) as pool:
        contenders: dict[str, Callable[[], object]] = {
            "script fork+wait": lambda: scripted_loop(n),
            "ThreadPoolExecutor": lambda: executor_loop(pool, n),
            "bare Future round trip": lambda: bare_future_loop(n),
            "direct call": lambda: direct_loop(n),
        }
        if torchscript is not None:
            contenders["TorchScript fork+wait"] = lambda: torchscript(n)
        timings = {name: t.per(n) for name, t in interleaved(repeats, contenders).items()}
    print("\n1. per fork+wait of a trivial task (min / median of interleaved repeats)")
    for name, timing in timings.items():
        print(f"   {name:24} {timing.min * 1e6:7.2f} / {timing.median * 1e6:7.2f} us")
    fork = timings["script fork+wait"]
    print(f"   fork/executor    = {fork.ratio(timings['ThreadPoolExecutor'])}")
    print(f"   fork/direct      = {fork.ratio(timings['direct call'])}")
    bare = fork.ratio(timings["bare Future round trip"])
    print(f"   fork/bare Future = {bare}  (target: at most 0.75x)")
    if torchscript is not None:
        torch_ratio = fork.ratio(timings["TorchScript fork+wait"])
        print(f"   fork/TorchScript = {torch_ratio}  (target: at most 0.2x)")
    else:
        print("   fork/TorchScript: torch is not installed")

    print("\n2. parallel speed-up of GIL-releasing work (sequential time / forked time)")
    block = os.urandom(32 * 1024 * 1024 if not args.quick else 8 * 1024 * 1024)
    scripted_sha = fw.script(fork_all)
    for count in (2, 8):
        items = [block] * count
        sequential = median_seconds(repeats, functools.partial(run_each, sha_work, items))
        forked = median_seconds(repeats, functools.partial(scripted_sha, sha_work, items))
        print(f"   {count} x sha256({len(block) >> 20} MiB)  {sequential / forked:5.2f}x")
    scripted_sleeps = fw.script(fork_sleeps)
    for count in (2, 8):
        naps = [0.05] * count
        sequential = median_seconds(repeats, functools.partial(run_each, sleep_work, naps))
        forked = median_seconds(repeats, functools.partial(scripted_sleeps, naps))
        print(f"   {count} x sleep(50 ms)       {sequential / forked:5.2f}x")

    print("\n3. nested fib(18): 8,360 forks")
    scripted_fib = fw.script(fib)
    plain = median_seconds(repeats, lambda: fib(18))
    scripted = median_seconds(repeats, lambda: scripted_fib(18))
    print(f"   plain Python {plain * 1e3:7.1f} ms   script {scripted * 1e3:7.1f} ms")
    print(f"   script/plain = {scripted / plain:.2f}x  (target: at most 1.5x)")


if __name__ == "__main__":
    main()
