"""The spec's fixed vocabulary: its profiles, the ``fw`` names each uses, and RFC 2119 levels.

One definition for everything that reads or renders the spec: the requirement
directive validates against it, adapters build ``fw`` from it, reports are
keyed on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: The RFC 2119 levels a requirement can have, strongest first.
LEVELS = ("MUST", "SHOULD", "MAY")

#: Every profile a requirement can belong to, with what it is about.
PROFILES: Mapping[str, str] = {
    "core": "fork/wait semantics in plain Python and the results of scripted code",
    "async": "scripted forks run concurrently, on their own, in the background",
    "dynamic": "scripted code may fork any Python callable: lambdas, closures, recursion",
    "trace": "trace() records forks and waits in a graph",
    "futures": "the Future API: created futures, set_result/set_exception, then, callbacks",
}

#: The ``fw`` names each profile's examples use.
PROFILE_NAMES: Mapping[str, tuple[str, ...]] = {
    "core": (
        "fork",
        "wait",
        "Future",
        "Module",
        "ModuleList",
        "script",
        "ignore",
        "collect_all",
        "wait_all",
    ),
    "async": ("fork", "wait", "Future", "script", "ignore", "collect_all", "wait_all"),
    "dynamic": ("fork", "wait", "script"),
    "trace": ("fork", "wait", "Module", "script", "ignore", "trace", "tensor", "graph_nodes"),
    "futures": ("fork", "wait", "Future", "script", "ignore", "collect_all", "wait_all"),
}


#: The methods each profile's examples call on a future that ``fork`` returned.
FUTURE_METHODS: Mapping[str, tuple[str, ...]] = {
    "core": ("done", "wait"),
    "async": ("done",),
    "futures": ("done", "wait", "value", "then", "add_done_callback"),
}


def future_methods(profiles: Iterable[str]) -> list[str]:
    """The future methods the examples of ``profiles`` call, each once."""
    wanted = set(profiles)
    names = (m for profile, listed in FUTURE_METHODS.items() if profile in wanted for m in listed)
    return list(dict.fromkeys(names))


def profile_names(profiles: Iterable[str]) -> list[str]:
    """The ``fw`` names the examples of ``profiles`` use, each once, in PROFILE_NAMES order."""
    wanted = set(profiles)
    names = (
        name for profile, listed in PROFILE_NAMES.items() if profile in wanted for name in listed
    )
    return list(dict.fromkeys(names))
