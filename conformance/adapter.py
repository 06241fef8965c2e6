"""What an implementation under test provides, and how one is found by name.

An adapter bundles the ``fw`` object the spec's examples call (``fw.fork``,
``fw.wait``, ...), the profiles the implementation claims, and the requirements
it is known to fail, each with a reason. Adapters are found through the
entry-point group ``forkwait.implementations`` or as ``module:attribute``.
"""

from __future__ import annotations

import difflib
import faulthandler
import importlib
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import FrameType, ModuleType
from typing import Any

from conformance.catalog.expectations import Entries, Entry, normalise
from conformance.catalog.vocabulary import PROFILE_NAMES, PROFILES, profile_names

__all__ = [
    "PROFILES",
    "PROFILE_NAMES",
    "Adapter",
    "AdapterError",
    "Entry",
    "Explorer",
    "available",
    "fw_from",
    "fw_module",
    "load_adapter",
]

ENTRY_POINT_GROUP = "forkwait.implementations"


def fw_from(names: Mapping[str, object], doc: str) -> ModuleType:
    """An ``fw`` module holding ``names`` (``{"fork": ..., "wait": ...}``) as attributes,
    with ``doc`` as its docstring: the ``fw`` of an adapter whose names come from here
    and there (``fw_module`` takes them all from one module).

    A module, not a namespace object: compilers such as TorchScript resolve
    ``fw.fork`` inside scripted code only through module attributes.
    """
    fw = ModuleType("fw", doc)
    for name, value in names.items():
        setattr(fw, name, value)
    return fw


def fw_module(source: ModuleType, profiles: Iterable[str], doc: str) -> ModuleType:
    """An ``fw`` module holding ``source``'s attributes for every name ``profiles`` use."""
    return fw_from({name: getattr(source, name) for name in profile_names(profiles)}, doc)


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
    #: requirement ID -> why this implementation is expected to fail it (a reason, or an
    #: Entry naming which examples; the format: :doc:`validating`, *Levels, expected
    #: failures and skips*)
    expected_failures: Mapping[str, str | Entry] = field(default_factory=dict)
    #: pytest ``filterwarnings`` entries for this implementation's own noise
    warning_filters: tuple[str, ...] = ()
    #: schedule exploration, for implementations that can control task order
    explorer: Explorer | None = None
    #: requirement ID -> why its examples must not run at all (known hangs and crashes)
    skips: Mapping[str, str | Entry] = field(default_factory=dict)

    @property
    def xfail_entries(self) -> Entries:
        return normalise(self.expected_failures)

    @property
    def skip_entries(self) -> Entries:
        return normalise(self.skips)

    def missing_names(self) -> list[str]:
        """``fw`` names that a claimed profile needs and the adapter lacks."""
        return sorted(name for name in self._needed() if not hasattr(self.fw, name))

    def uncallable_names(self) -> list[str]:
        """``fw`` names a claimed profile needs that are there but cannot be called."""
        return sorted(
            name
            for name in self._needed()
            if hasattr(self.fw, name) and not callable(getattr(self.fw, name))
        )

    def _needed(self) -> list[str]:
        return profile_names(self.profiles)

    def validate(self) -> Adapter:
        """Fail fast, listing every problem at once."""
        problems = _field_problems(self)
        if problems:  # the checks below rely on the fields' types
            raise AdapterError(f"adapter {self.name!r} is broken: " + "; ".join(problems))
        unknown = sorted(set(self.profiles) - set(PROFILES))
        if unknown:
            problems.append(f"unknown profiles {unknown} (known: {sorted(PROFILES)})")
        missing = self.missing_names()
        if missing:
            problems.append(f"fw lacks {', '.join(missing)}")
        uncallable = self.uncallable_names()
        if uncallable:
            described = ", ".join(
                f"{name} ({type(getattr(self.fw, name)).__name__})" for name in uncallable
            )
            problems.append(f"fw names that are not callable: {described}")
        if problems:
            raise AdapterError(f"adapter {self.name!r} is broken: " + "; ".join(problems))
        return self


def _field_problems(adapter: Adapter) -> list[str]:
    """Fields of the wrong type: an adapter is built by its author's code, and a dataclass
    checks nothing (a list of expected failures, ``name=None``)."""
    problems = [
        f"{name} must be a non-empty string, got {value!r}"
        for name, value in (("name", adapter.name), ("version", adapter.version))
        if not isinstance(value, str) or not value.strip()
    ]
    profiles = adapter.profiles
    if not isinstance(profiles, frozenset | set | list | tuple) or not all(
        isinstance(profile, str) for profile in profiles
    ):
        problems.append(f"profiles must be a set of profile names, got {profiles!r}")
    for name in ("expected_failures", "skips"):
        entries = getattr(adapter, name)
        if not isinstance(entries, Mapping) or not all(
            isinstance(key, str) and isinstance(value, str | Entry)
            for key, value in entries.items()
        ):
            problems.append(
                f"{name} must map requirement IDs to reasons ({{'ID': 'why'}}, or "
                f"conformance.adapter.Entry values), got {type(entries).__name__} "
                f"{_short(entries)}"
            )
    filters = adapter.warning_filters
    if not isinstance(filters, tuple | list) or not all(isinstance(f, str) for f in filters):
        problems.append(f"warning_filters must be a tuple of strings, got {_short(filters)}")
    if adapter.explorer is not None and not isinstance(adapter.explorer, Explorer):
        problems.append(f"explorer must be an Explorer or None, got {_short(adapter.explorer)}")
    return problems


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def available() -> dict[str, str]:
    """Registered implementation names -> the object each entry point names."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def load_adapter(name: str, deadline: float = 0.0) -> Adapter:
    """Resolve ``name`` (an entry-point name or ``module:attr``) to a validated Adapter.

    The target may be an :class:`Adapter` or a callable returning one, so that an
    implementation is imported only when it is chosen. With a ``deadline`` (seconds),
    importing and building the adapter must finish in time.
    """
    with _deadline(deadline, name):
        target = _resolve(name)
        if callable(target) and not isinstance(target, Adapter):
            try:
                target = target()
            except AdapterError:
                raise
            except ModuleNotFoundError as exc:  # an adapter that imports its engine lazily
                raise AdapterError(_not_importable(name, exc)) from exc
            except BaseException as exc:
                raise AdapterError(f"implementation {name!r} failed to load: {exc!r}") from exc
    if not isinstance(target, Adapter):
        raise AdapterError(
            f"implementation {name!r} gave {type(target).__name__}, not a conformance Adapter"
        )
    return target.validate()


#: extras of this package that provide a registered implementation's dependencies
EXTRAS = {"torch": "torch", "dask": "dask", "ray": "ray", "gevent": "gevent"}


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
        known = sorted(available())
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise AdapterError(
            f"no implementation named {name!r}{hint} Registered ones: "
            f"{', '.join(known) or 'none'} (entry-point group {ENTRY_POINT_GROUP!r}); "
            "or give module:attribute"
        )
    try:
        return loader()
    except AdapterError:
        raise
    except ModuleNotFoundError as exc:
        raise AdapterError(_not_importable(name, exc)) from exc
    except BaseException as exc:
        raise AdapterError(f"implementation {name!r} failed to import: {exc!r}") from exc


def _not_importable(name: str, exc: ModuleNotFoundError) -> str:
    if name in EXTRAS:
        return (
            f"implementation {name!r} needs the module {exc.name!r}: install the extra, "
            f"pip install 'forkwait-spec[{EXTRAS[name]}]'"
        )
    return (
        f"implementation {name!r} failed to import: {exc!r}. The module must be importable "
        "by the Python running the suite: install its package (pip install -e PATH), or "
        "add its folder to PYTHONPATH"
    )


#: seconds past the deadline before a load stuck in C code ends the process
_HARD_GRACE = 5.0


@contextmanager
def _deadline(seconds: float, name: str) -> Iterator[None]:
    """Stop a load that hangs: an exception where Python can interrupt it, else exit."""
    usable = seconds > 0 and threading.current_thread() is threading.main_thread()
    if not usable or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise AdapterError(
            f"implementation {name!r} did not finish loading within {seconds:g} s "
            "(--example-timeout): its import or adapter factory hangs"
        )

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    sys.stderr.flush()
    faulthandler.dump_traceback_later(seconds + _HARD_GRACE, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
