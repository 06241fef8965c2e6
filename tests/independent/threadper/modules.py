"""``Module`` and ``ModuleList``: a call of a module calls its ``forward``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


class Module:
    """The base class of modules; subclasses define ``forward``."""

    def __init__(self) -> None:
        pass

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")


class ModuleList(Module):
    """Modules in order; every loop over it gets an iterator of its own."""

    def __init__(self, modules: Iterable[Module] = ()) -> None:
        super().__init__()
        self._modules = list(modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules))

    def __len__(self) -> int:
        return len(self._modules)

    def __getitem__(self, index: int) -> Module:
        return self._modules[index]
