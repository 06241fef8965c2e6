"""What an implementation under test provides, and how one is found by name.

An adapter bundles the ``fw`` object the spec's examples call (``fw.fork``,
``fw.wait``, ...), the profiles the implementation claims, and the requirements
it is known to fail, each with a reason. Adapters are found through the
entry-point group ``forkwait.implementations`` or as ``module:attribute``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

ENTRY_POINT_GROUP = "forkwait.implementations"

#: Every profile a requirement can belong to, with what it is about.
PROFILES: Mapping[str, str] = {
    "core": "fork/wait semantics in plain Python and the results of scripted code",
    "async": "scripted forks run concurrently, on their own, in the background",
    "dynamic": "scripted code may fork any Python callable: lambdas, closures, recursion",
    "trace": "trace() records forks and waits in a graph",
}

#: The ``fw`` names each profile's examples use.
PROFILE_NAMES: Mapping[str, tuple[str, ...]] = {
    "core": ("fork", "wait", "Future", "Module", "script", "ignore", "collect_all", "wait_all"),
    "async": ("fork", "wait", "Future", "script", "ignore"),
    "dynamic": ("fork", "wait", "script"),
    "trace": ("fork", "wait", "Module", "trace", "tensor", "graph_nodes"),
}


@dataclass(frozen=True)
class Explorer:
    """How an implementation runs scripted code under chosen, replayable schedules."""

    #: n -> n distinct schedule names, in the implementation's own vocabulary
    schedules: Callable[[int], list[str]]
    #: schedule name -> context manager under which top-level scripted calls use it
    use: Callable[[str], AbstractContextManager[object]]


class AdapterError(Exception):
    """An implementation could not be found, loaded, or lacks what it claims."""


@dataclass(frozen=True)
class Adapter:
    """An implementation under test, as the suite sees it."""

    name: str
    version: str
    fw: Any
    profiles: frozenset[str]
    #: requirement ID -> why this implementation is expected to fail it
    expected_failures: Mapping[str, str] = field(default_factory=dict)
    #: pytest ``filterwarnings`` entries for this implementation's own noise
    warning_filters: tuple[str, ...] = ()
    #: schedule exploration, for implementations that can control task order
    explorer: Explorer | None = None

    def missing_names(self) -> list[str]:
        """``fw`` names that a claimed profile needs and the adapter lacks."""
        needed = {name for profile in self.profiles for name in PROFILE_NAMES.get(profile, ())}
        return sorted(name for name in needed if not hasattr(self.fw, name))

    def validate(self) -> Adapter:
        """Fail fast, listing every problem at once."""
        problems = []
        unknown = sorted(set(self.profiles) - set(PROFILES))
        if unknown:
            problems.append(f"unknown profiles {unknown} (known: {sorted(PROFILES)})")
        missing = self.missing_names()
        if missing:
            problems.append(f"fw lacks {', '.join(missing)}")
        if problems:
            raise AdapterError(f"adapter {self.name!r} is broken: " + "; ".join(problems))
        return self


def available() -> dict[str, str]:
    """Registered implementation names -> the object each entry point names."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def load_adapter(name: str) -> Adapter:
    """Resolve ``name`` (an entry-point name or ``module:attr``) to a validated Adapter.

    The target may be an :class:`Adapter` or a callable returning one, so that an
    implementation is imported only when it is chosen.
    """
    target = _resolve(name)
    if callable(target) and not isinstance(target, Adapter):
        try:
            target = target()
        except Exception as exc:
            raise AdapterError(f"implementation {name!r} failed to load: {exc!r}") from exc
    if not isinstance(target, Adapter):
        raise AdapterError(
            f"implementation {name!r} gave {type(target).__name__}, not a conformance Adapter"
        )
    return target.validate()


def _resolve(name: str) -> Any:
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    loader: Callable[[], Any]
    if matches:
        loader = matches[0].load
    elif ":" in name:
        module_name, _, attribute = name.partition(":")

        def loader() -> Any:
            value: Any = importlib.import_module(module_name)
            for part in attribute.split("."):
                value = getattr(value, part)
            return value
    else:
        known = ", ".join(sorted(available())) or "none"
        raise AdapterError(
            f"no implementation named {name!r}: registered ones are {known} "
            f"(entry-point group {ENTRY_POINT_GROUP!r}), or give module:attribute"
        )
    try:
        return loader()
    except Exception as exc:
        raise AdapterError(f"implementation {name!r} failed to import: {exc!r}") from exc
