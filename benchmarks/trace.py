"""Cost of tracing, and of re-running a trace, for a program of 1,000 forks.

Prints, measured in one run: the plain-Python call (forks synchronous), the
scripted call (forks on the pool), ``trace`` itself, and re-running the traced
function (an interpreter over the graph, forks on the pool), with ratios
against the plain call.

Run: ``python benchmarks/trace.py [--quick]``
"""

from __future__ import annotations

import argparse
import functools

from _timing import median_seconds

import reference_impl as fw


def leaf(x: fw.Tensor, k: int) -> fw.Tensor:
    return x * k + 1


def thousand_forks(x: fw.Tensor, forks: int = 1000) -> fw.Tensor:
    futures = [fw.fork(leaf, x, k) for k in range(forks)]
    total = x
    for future in futures:
        total = total + fw.wait(future)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    repeats = 3 if args.quick else 9
    x = fw.tensor([1, 2, 3])

    traced = fw.trace(thousand_forks, x)
    scripted = fw.script(thousand_forks)
    plain = median_seconds(repeats, functools.partial(thousand_forks, x))
    script = median_seconds(repeats, functools.partial(scripted, x))
    tracing = median_seconds(repeats, functools.partial(fw.trace, thousand_forks, x))
    rerun = median_seconds(repeats, functools.partial(traced, x))
    assert traced(x).tolist() == thousand_forks(x).tolist()

    print(f"program of 1,000 forks on a 3-element tensor ({fw.get_num_threads()} workers)")
    for name, seconds in [
        ("plain Python call", plain),
        ("scripted call", script),
        ("trace()", tracing),
        ("traced re-run", rerun),
    ]:
        print(f"  {name:<18} {seconds * 1e3:8.2f} ms   {seconds / plain:5.2f}x plain")


if __name__ == "__main__":
    main()
