"""The adapter for ``reference_impl``, the implementation embedded in this project."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

from conformance.adapter import Adapter, Explorer


@functools.cache
def module_list_class() -> type:
    """``reference_impl.ModuleList``, or, while the reference has none, a minimal one.

    A module list holds modules in order and iterates over them, the role
    ``torch.nn.ModuleList`` plays in ensembles; the reference compiles nothing,
    so a plain container of its modules serves.
    """
    import reference_impl  # noqa: PLC0415

    existing: type | None = getattr(reference_impl, "ModuleList", None)
    if existing is not None:
        return existing

    class ModuleList(reference_impl.Module):
        """Modules in order; iterating, ``len`` and indexing give them."""

        def __init__(self, modules: Iterable[Any] = ()) -> None:
            super().__init__()
            self._items = list(modules)

        def __iter__(self) -> Iterator[Any]:
            return iter(self._items)

        def __len__(self) -> int:
            return len(self._items)

        def __getitem__(self, index: int) -> Any:
            return self._items[index]

        def append(self, module: Any) -> ModuleList:
            self._items.append(module)
            return self

    ModuleList.__module__ = __name__
    ModuleList.__qualname__ = "ModuleList"
    return ModuleList


def adapter() -> Adapter:
    """Build the reference adapter (imported only when chosen)."""
    import reference_impl  # noqa: PLC0415 - deferred until this implementation is chosen
    from reference_impl import default_schedules, use_schedule  # noqa: PLC0415

    # A module, not a namespace object: compilers such as TorchScript resolve
    # ``fw.fork`` inside scripted code only through module attributes.
    fw = ModuleType("fw", "forkwait reference implementation, as examples see it")
    for name in (
        "fork",
        "wait",
        "Future",
        "Module",
        "script",
        "ignore",
        "collect_all",
        "wait_all",
        "trace",
        "tensor",
        "graph_nodes",
    ):
        setattr(fw, name, getattr(reference_impl, name))
    fw.ModuleList = module_list_class()  # type: ignore[attr-defined]
    return Adapter(
        name="reference",
        version=reference_impl.__version__,
        fw=fw,
        profiles=frozenset({"core", "async", "dynamic", "trace", "futures"}),
        explorer=Explorer(schedules=default_schedules, use=use_schedule),
    )
