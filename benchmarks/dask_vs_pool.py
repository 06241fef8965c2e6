"""forkwait on Dask against the reference thread pool, measured in one run.

1. throughput of 10,000 small forks (fork them all from scripted code, then wait
   them all), tasks per second;
2. 16 GIL-releasing 200 ms tasks (``time.sleep``) forked at once, wall time.

The Dask side is the in-process default: a 2-worker LocalCluster with 2 threads
per worker (``FORKWAIT_DASK_WORKERS``/``FORKWAIT_DASK_THREADS`` change it). The
reference runs with its default pool and with as many threads as Dask has.

Run: ``python benchmarks/dask_vs_pool.py [--quick]`` (needs the ``dask`` extra; not
named dask.py, which would shadow the dask package when run as a script)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from _timing import seconds

import dask_impl
import reference_impl


def small(x: int) -> int:
    return x + 1


def nap(seconds: float) -> float:
    time.sleep(seconds)  # releases the GIL
    return seconds


def fan_out(impl: Any, work: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    futures = [impl.fork(work, item) for item in items]
    return [impl.wait(future) for future in futures]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 small forks, not 10,000")
    args = parser.parse_args()
    count = 1_000 if args.quick else 10_000
    cluster = dask_impl.client().cluster
    threads = sum(w.nthreads for w in cluster.scheduler.workers.values()) if cluster else 0
    on_dask = dask_impl.script(lambda w, xs: fan_out(dask_impl, w, xs))
    on_reference = reference_impl.script(lambda w, xs: fan_out(reference_impl, w, xs))
    on_dask(small, list(range(50)))  # warm up both
    on_reference(small, list(range(50)))

    default_threads = reference_impl.get_num_threads()
    print(f"Dask: {len(cluster.scheduler.workers) if cluster else '?'} workers, {threads} threads")
    print(f"reference: {default_threads} threads by default")

    print(f"\n1. {count:,} small forks, then waits")
    t_dask = seconds(lambda: on_dask(small, list(range(count))))
    t_ref = seconds(lambda: on_reference(small, list(range(count))))
    print(f"   dask       {count / t_dask:10,.0f} tasks/s")
    print(f"   reference  {count / t_ref:10,.0f} tasks/s   dask/reference = {t_ref / t_dask:.4f}x")

    print("\n2. 16 x sleep(200 ms), forked at once")
    naps = [0.2] * 16
    t_dask = seconds(lambda: on_dask(nap, naps))
    t_ref = seconds(lambda: on_reference(nap, naps))
    reference_impl.set_num_threads(max(threads, 1))
    t_ref_same = seconds(lambda: on_reference(nap, naps))
    reference_impl.set_num_threads(default_threads)
    print(f"   dask ({threads} threads)        {t_dask:6.2f} s")
    print(
        f"   reference ({default_threads} threads)   {t_ref:6.2f} s   "
        f"reference/dask = {t_ref / t_dask:.2f}x"
    )
    print(
        f"   reference ({threads} threads)   {t_ref_same:6.2f} s   "
        f"reference/dask = {t_ref_same / t_dask:.2f}x"
    )
    print(f"   sequential would take {sum(naps):.1f} s")


if __name__ == "__main__":
    main()
