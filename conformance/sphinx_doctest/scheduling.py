"""xdist scheduling that keeps a document's items together, survives crashes, and lets a
worker retire. It serves ``--dist load``, ``loadfile``, ``loadscope`` and ``loadgroup``
alike (an ``xdist_group`` mark, which doc tests never carry, still keeps its tests
together); ``each`` and ``worksteal`` keep xdist's own scheduling.

A document's tests share their groups' namespaces, so splitting a document
across workers makes each worker rebuild those namespaces (replaying the
earlier tests): correct, but wasted work. Documents are therefore scheduled
whole, as ``--dist loadfile`` does.

When a worker dies, xdist 3.8's own ``loadscope``/``loadfile`` puts back every
unit the worker was ever given, finished ones and the item that crashed
included: the crashed item runs again (and crashes again), and a finished unit
is sent as an empty batch that never completes, so the run stalls
(pytest-dev/pytest-xdist#784, #1378). Here only unfinished items go back,
ahead of the rest, and the crashed item is not among them.

A worker may also *retire*: end itself after a test left its process in a
state no later test should inherit (a hang Python interrupted, leaving
threads stuck). Its next item then did not crash; all its unfinished items go
back to the queue, for the replacement worker xdist starts.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling


class DocumentScheduling(LoadScopeScheduling):  # type: ignore[misc]
    """``loadfile`` scheduling that survives crashes, with retirement (see above)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.workqueue: OrderedDict[str, dict[str, bool]] = self.workqueue
        self.retiring: set[str] = set()

    def _split_scope(self, nodeid: str) -> str:
        """The item's file; under ``--dist loadgroup``, an ``xdist_group``'s name."""
        grouped = nodeid.rfind("@") > nodeid.rfind("]")
        if grouped and self.config.getvalue("dist") == "loadgroup":
            return nodeid.rpartition("@")[2]
        return nodeid.split("::", 1)[0]

    def retire(self, worker_id: str) -> None:
        """The worker will end itself before its next item: that item did not crash."""
        self.retiring.add(worker_id)

    def _reschedule(self, node: Any) -> None:
        """Keep at least two items queued on the node: an xdist worker starts an item
        only once it knows the next one (or that none comes), so a lone item waits
        forever. loadscope tops up one unit at a time and can leave a replacement
        worker with a single item."""
        if node.shutting_down:
            return
        while self.workqueue and self._pending_of(self.assigned_work[node]) < 2:
            self._assign_work_unit(node)
        if not self.workqueue:
            node.shutdown()

    def remove_node(self, node: Any) -> str | None:
        """Queue the node's unfinished items again; the item it died in, unless it
        retired, is its crash item and is not run again."""
        workload: dict[str, dict[str, bool]] = self.assigned_work.pop(node)
        retired = node.gateway.id in self.retiring
        self.retiring.discard(node.gateway.id)
        crashitem: str | None = None
        unfinished: OrderedDict[str, dict[str, bool]] = OrderedDict()
        for scope, unit in workload.items():
            if all(unit.values()):
                continue
            if crashitem is None and not retired:
                crashitem = next(nodeid for nodeid, done in unit.items() if not done)
                unit[crashitem] = True
            if not all(unit.values()):
                unfinished[scope] = unit
        self.workqueue = OrderedDict([*unfinished.items(), *self.workqueue.items()])
        for other in self.assigned_work:
            self._reschedule(other)
        return crashitem
