"""The adapter for gevent (``--impl gevent``; needs the ``gevent`` extra, gevent==26.9.0).

gevent as its users run it: ``gevent.monkey.patch_all()`` when the adapter is
imported (so ``threading``, ``time.sleep``, locks and events cooperate with
greenlets), ``fork`` is ``gevent.spawn``, ``wait`` is ``Greenlet.get``, and a
future is a ``gevent.Greenlet``. Every task is a greenlet of the calling
thread: it runs when the caller blocks (in ``get``, a sleep, an event), never
in parallel with it. The names gevent lacks (a compiler, a module class) are
the plain Python of the threads adapter (conformance/adapters/threads.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gevent
from gevent import monkey

from conformance.adapter import Adapter, fw_from
from conformance.adapters.threads import Module, ModuleList, ignore, script
from conformance.catalog.expectations import load_entries

# How gevent is used: patched once, at start-up, so that the standard library cooperates.
# The harness has imported threading, ssl and the rest already (gevent warns about ssl);
# patching replaces their module attributes all the same, as in any late-patching program.
monkey.patch_all()

XFAILS_FILE = Path(__file__).with_name("gevent_xfails.toml")
SKIPS_FILE = Path(__file__).with_name("gevent_skips.toml")


def wait_all(greenlets: Iterable[gevent.Greenlet]) -> list[Any]:
    """The results in order: the obvious loop over ``Greenlet.get``."""
    return [greenlet.get() for greenlet in greenlets]


def collect_all(greenlets: list[gevent.Greenlet]) -> gevent.Greenlet:
    """A greenlet that joins them all (``gevent.joinall``) and gives the same greenlets back,
    in a new list (the caller's list stays the caller's)."""

    def all_done() -> list[gevent.Greenlet]:
        gevent.joinall(greenlets)
        return list(greenlets)

    return gevent.spawn(all_done)


def adapter() -> Adapter:
    """Build the gevent adapter (gevent is imported, and patches, with this module)."""
    fw = fw_from(
        {
            "fork": gevent.spawn,
            "wait": gevent.Greenlet.get,
            "Future": gevent.Greenlet,
            "script": script,
            "ignore": ignore,
            "Module": Module,
            "ModuleList": ModuleList,
            "collect_all": collect_all,
            "wait_all": wait_all,
        },
        "gevent, monkey-patched, as the forkwait spec's examples see it",
    )
    return Adapter(
        name="gevent",
        version=gevent.__version__,
        fw=fw,
        # not "futures": a Greenlet has no done(), wait(), value(), then(),
        # add_done_callback() nor set_result(), and its class cannot be called without a
        # function to run: every requirement of the profile fails when it is claimed.
        # gevent's AsyncResult has done() and set_result(), but spawn does not return one
        profiles=frozenset({"core", "async", "dynamic"}),
        expected_failures=load_entries(XFAILS_FILE),
        skips=load_entries(SKIPS_FILE, "skips"),
    )
