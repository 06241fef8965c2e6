"""What the harness needs to know of the adapter, as data, and a check of its surface.

The harness never imports the implementation, so the executor tells it the
adapter's name, version, profiles, expected failures, skips, warning filters
and schedules. It also tries, once, what each claimed profile needs (the
``fw`` names, a fork/wait round trip, ``fw.Future[int]``): problems are listed
in one block before the examples run, and the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.adapter import Adapter, AdapterError, Entry
from conformance.catalog.expectations import Entries
from conformance.catalog.vocabulary import future_methods, profile_names


def entries_data(entries: Entries) -> dict[str, dict[str, Any]]:
    return {
        req_id: {
            "reason": entry.reason,
            "examples": None if entry.examples is None else sorted(entry.examples),
            "flaky": entry.flaky,
        }
        for req_id, entry in entries.items()
    }


def entries_from(data: dict[str, dict[str, Any]]) -> Entries:
    return {
        req_id: Entry(
            str(item["reason"]),
            None if item["examples"] is None else frozenset(int(n) for n in item["examples"]),
            bool(item.get("flaky", False)),
        )
        for req_id, item in data.items()
    }


def describe(adapter: Adapter, count: int, replay: str | None) -> dict[str, Any]:
    """The adapter as data, with the schedules the run explores (``count`` of them, or
    the one ``replay`` names)."""
    explorer = adapter.explorer
    if replay and explorer is None:
        raise AdapterError(f"--schedule: implementation {adapter.name!r} cannot run schedules")
    schedules: list[str] = []
    if explorer is not None and replay:
        try:
            with explorer.use(replay):
                pass
        except Exception as exc:
            raise AdapterError(f"--schedule {replay!r}: {exc}") from exc
        schedules = [replay]
    elif explorer is not None:
        schedules = _explored(adapter, count)
    return {
        "name": adapter.name,
        "version": adapter.version,
        "profiles": sorted(adapter.profiles),
        "expected_failures": entries_data(adapter.xfail_entries),
        "skips": entries_data(adapter.skip_entries),
        "warning_filters": list(adapter.warning_filters),
        "explorer": explorer is not None,
        "schedules": schedules,
        "problems": surface_problems(adapter),
    }


def _explored(adapter: Adapter, count: int) -> list[str]:
    """``count`` distinct schedule names, or an AdapterError: a run is honoured or
    refused, never silently exploring fewer schedules than it says."""
    assert adapter.explorer is not None
    names = list(adapter.explorer.schedules(count))
    distinct = dict.fromkeys(names)
    if len(distinct) != count or not all(isinstance(n, str) and n.strip() for n in names):
        raise AdapterError(
            f"--schedules {count}: the explorer of implementation {adapter.name!r} gave "
            f"{len(distinct)} distinct schedule names ({', '.join(map(repr, names[:5]))}"
            f"{', ...' if len(names) > 5 else ''}), not {count}; ask for at most what it "
            "can give, or fix its schedules()"
        )
    return names


def adapter_from(data: dict[str, Any]) -> Adapter:
    """The harness's view of the adapter: its data, no ``fw`` and no explorer."""
    return Adapter(
        name=str(data["name"]),
        version=str(data["version"]),
        fw=None,
        profiles=frozenset(data["profiles"]),
        expected_failures=entries_from(data["expected_failures"]),
        warning_filters=tuple(data["warning_filters"]),
        skips=entries_from(data["skips"]),
    )


#: a check whose value is not compared: it only must not raise
_ANY = object()


def _double(x: int) -> int:
    return 2 * x


def surface_problems(adapter: Adapter) -> list[str]:
    """What a claimed profile needs and the adapter does not do, each in one line that
    says what is wrong (never what was expected, which could read as a pass).

    A missing ``fw`` name already stops the run (``Adapter.validate``). These are
    the mistakes that pass that check and then fail dozens of examples for one
    cause: a future type that cannot annotate (``fw.Future[int]``), ``fork``'s
    result not an ``fw.Future`` or lacking a method the examples call, a fork/wait
    or scripted round trip that does not give its value. Listed once, before the
    examples.
    """
    fw = adapter.fw
    needed = set(profile_names(adapter.profiles))
    problems: list[str] = []

    def check(
        attempt: Callable[[], object],
        raised: str,
        wrong: Callable[[object], str | None] = lambda got: None,
    ) -> object:
        """Try ``attempt``: ``raised`` names it if it raises; ``wrong`` words a bad result."""
        try:
            got = attempt()
        except Exception as exc:  # noqa: BLE001 - any failure of the adapter is a finding
            problems.append(f"{raised} raised {type(exc).__name__}: {exc}"[:300])
            return _ANY
        problem = wrong(got)
        if problem is not None:
            problems.append(problem[:300])
        return got

    check(
        lambda: fw.wait(fw.fork(abs, -2)),
        "fw.wait(fw.fork(abs, -2))",
        lambda got: None if got == 2 else f"fw.wait(fw.fork(abs, -2)) returned {got!r}, not 2",
    )
    if "script" in needed:
        check(
            lambda: fw.script(_double)(3),
            "fw.script(double)(3)",
            lambda got: None if got == 6 else f"fw.script(double)(3) returned {got!r}, not 6",
        )
    if "Future" in needed:
        check(lambda: fw.Future[int], "fw.Future[int] (the examples annotate with it)")
        future = check(lambda: fw.fork(abs, -2), "fw.fork(abs, -2)")
        if future is not _ANY:
            kind = type(future).__qualname__
            check(
                lambda: isinstance(future, fw.Future),
                "isinstance(fw.fork(abs, -2), fw.Future)",
                lambda got: None if got else f"fw.fork's result (a {kind}) is not an fw.Future",
            )
            for method in future_methods(adapter.profiles):
                check(
                    lambda m=method: callable(getattr(future, m, None)),  # type: ignore[misc]
                    f"reading {method} of fw.fork's result",
                    lambda got, m=method: (  # type: ignore[misc]
                        None if got else f"fw.fork's result (a {kind}) has no {m}() method"
                    ),
                )
            check(lambda: fw.wait(future), "fw.wait on fw.fork's result")
    return problems


__all__ = ["adapter_from", "describe", "entries_data", "entries_from", "surface_problems"]
