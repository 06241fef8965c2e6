"""This pytest process's executor: started for the run, described once, handed to documents.

The controller asks its executor to describe the adapter (name, version,
profiles, entries, schedules, the adapter check) and passes that data on to
xdist workers, which never load the adapter to learn it, with the
implementation's files as that executor loaded them; each worker drives an
executor of its own, started when its first example runs, which must load
the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapter import AdapterError
from conformance.executor.handle import ExecutorFault, ExecutorHandle, Launch
from conformance.executor.remote import RemoteDocumentRun
from conformance.run.config import SpecLocation
from conformance.sphinx_doctest.collectors import DocumentFile

#: workerinput key of the adapter's description
ADAPTER_KEY = "forkwait_adapter"
HANDLE = pytest.StashKey[ExecutorHandle]()
_DESCRIBED = pytest.StashKey[dict[str, Any]]()
#: the implementation's files as the describing executor loaded them, for the workers
_CODE = "code"


def make_handle(config: pytest.Config, location: SpecLocation, impl: str) -> ExecutorHandle:
    """This process's executor handle: the one begun early if it is for ``impl``."""
    launch = Launch(
        confdir=str(location.source.confdir),
        impl=impl,
        timeout=config.getoption("example_timeout") or 0.0,
        deadlocks=not config.getoption("no_deadlock_detection"),
    )
    handle = config.stash.get(HANDLE, None)
    if handle is not None and handle.launch == launch:
        return handle
    if handle is not None:
        handle.stop()
    handle = config.stash[HANDLE] = ExecutorHandle(launch)
    return handle


def begin_early(config: pytest.Config, location: SpecLocation, impl: str) -> None:
    """Start the executor that will describe the adapter now, before the project is
    read: its start-up (Python, conf.py, the implementation) then overlaps Sphinx's.
    Not in an xdist worker, which learns the adapter from its controller and starts
    its executor for its first example."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None and ADAPTER_KEY in workerinput:
        return
    make_handle(config, location, impl).begin()


def describer(config: pytest.Config, location: SpecLocation) -> Any:
    """The ``describe(impl, count, replay)`` configure_run calls."""

    def describe(impl: str, count: int, replay: str | None) -> dict[str, Any]:
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        handle = make_handle(config, location, impl)
        if workerinput is not None and ADAPTER_KEY in workerinput:
            data: dict[str, Any] = workerinput[ADAPTER_KEY]
            handle.code = data.get(_CODE)  # the code the run began with is the run's
            return data
        try:
            data = handle.request({"op": "describe", "count": count, "replay": replay})
        except ExecutorFault as fault:
            handle.stop()
            raise AdapterError(
                f"implementation {impl!r}: its executor ended while describing it: "
                f"{fault.summary}\n{handle.output()}"
            ) from None
        except AdapterError:
            handle.stop()
            raise
        if "usage_error" in data:
            handle.stop()
            raise AdapterError(str(data["usage_error"]))
        config.stash[_DESCRIBED] = {**data, _CODE: handle.code}
        return data

    return describe


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist: the worker learns the adapter from the controller's executor."""
    node.workerinput[ADAPTER_KEY] = node.config.stash[_DESCRIBED]


def controller_done(config: pytest.Config) -> None:
    """Under xdist the controller runs no example: its executor can go."""
    if config.getoption("dist", "no") != "no" and config.getoption("tx", None):
        handle = config.stash.get(HANDLE, None)
        if handle is not None and not hasattr(config, "workerinput"):
            handle.stop_process()


def run_remotely(parent: DocumentFile) -> None:
    """The document's tests run in this process's executor."""
    document = parent.document
    local = document.run
    document.run = RemoteDocumentRun(local, document.docname, parent.config.stash[HANDLE])


__all__ = [
    "ADAPTER_KEY",
    "HANDLE",
    "begin_early",
    "controller_done",
    "describer",
    "run_remotely",
]
