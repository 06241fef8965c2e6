"""An independent fork/wait runtime on a fork/join pool, written from the spec's text.

Modules, one job each: ``pool`` (workers, deques, stealing, managed blocking),
``future`` (the future), ``deadlock`` (the wait-for graph), ``runtime`` (fork,
wait, collect_all, wait_all), ``scripted`` (script, ignore, modules),
``schedule`` (schedule names, ``use`` and top-level scripted calls),
``controlled`` and ``control_hooks`` (a call run one task at a time under a
schedule), ``tensor``, ``trace_hooks``, ``graph`` and ``tracing`` (trace
capture), ``adapter`` (what the conformance suite loads).
"""

from .adapter import adapter

__all__ = ["adapter"]
