"""``--impl gevent`` is gevent as it is used: monkey-patched, spawn and get, nothing in between.

Importing the adapter runs ``gevent.monkey.patch_all()``, which would turn this
test process's threads into greenlets, so every test that loads it does so in
a child interpreter.
"""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import conformance.adapters
from conformance.adapter import AdapterError, load_adapter
from conformance.catalog.expectations import load_entries

SKIPS = Path(conformance.adapters.__file__).parent / "gevent_skips.toml"
needs_gevent = pytest.mark.skipif(
    importlib.util.find_spec("gevent") is None, reason="the gevent extra is not installed"
)

LOAD_AND_FORK = """
import gevent, gevent.monkey
from conformance.adapter import load_adapter

adapter = load_adapter("gevent")
fw = adapter.fw
greenlet = fw.fork(pow, 2, 10)
print(sorted(adapter.profiles), gevent.monkey.is_module_patched("threading"))
print(fw.fork is gevent.spawn, fw.wait is gevent.Greenlet.get, fw.Future is gevent.Greenlet)
print(type(greenlet).__name__, fw.wait(greenlet), fw.wait_all([greenlet]))
print(fw.wait(fw.collect_all([greenlet])) == [greenlet])
"""


def child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@needs_gevent
def test_the_adapter_patches_the_process_and_forks_greenlets() -> None:
    done = child(LOAD_AND_FORK)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "['async', 'core', 'dynamic'] True",
        "True True True",
        "Greenlet 1024 [1024]",
        "True",
    ]


@needs_gevent
def test_greenlet_get_on_a_non_greenlet_kills_the_interpreter_as_the_skip_says() -> None:
    """The reason WAIT-NOT-A-FUTURE-1 is skipped, kept true: once gevent stops crashing on
    it, this fails, and the example can run (and fail, or pass) like any other."""
    reason = load_entries(SKIPS, "skips")["WAIT-NOT-A-FUTURE-1"].reason
    assert "SIGSEGV" in reason
    for bad in ("3", "None", "'future'"):
        done = child(f"import gevent\ngevent.Greenlet.get({bad})\nprint('survived')")
        assert done.returncode == -signal.SIGSEGV, (bad, done.returncode, done.stderr)
        assert "survived" not in done.stdout


def test_without_gevent_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes `import gevent` raise ModuleNotFoundError, installed or not
    monkeypatch.setitem(sys.modules, "gevent", None)
    monkeypatch.delitem(sys.modules, "conformance.adapters.gevent", raising=False)
    with pytest.raises(AdapterError, match=r"pip install 'forkwait-spec\[gevent\]'"):
        load_adapter("gevent")
