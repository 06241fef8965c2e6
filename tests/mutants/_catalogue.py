"""The mutant catalogue: every mutant module of tests/mutants and the contract it declares.

The folder holds mutant modules (``<name>.py``, loaded by the suite as
``--impl tests.mutants.<name>:adapter``), helpers (``_*.py``), the package's
``__init__.py`` and the runner (``test_*.py``); nothing else. A mutant module
declares ``CONTRACT = contract(...)`` (``_contract.py``) and its docstring's
first line says what it gets wrong. The catalogue is read by importing the
modules, so that what the runner checks and what the coverage page lists is
what each module says.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from tests.mutants._contract import Contract
from tests.mutants._variants import Variant

MUTANT_DIR = Path(__file__).parent
PACKAGE = "tests.mutants"


def _is_helper(path: Path) -> bool:
    return path.name.startswith(("_", "test_"))


def mutant_modules() -> list[str]:
    """The names of the folder's mutant modules: every module but the helpers and runner."""
    return sorted(p.stem for p in MUTANT_DIR.glob("*.py") if not _is_helper(p))


def module(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


def contracts() -> dict[str, Contract]:
    """Mutant name -> the contract its module declares (a module without one is left out, and
    :func:`misfiled` names it)."""
    declared = {name: getattr(module(name), "CONTRACT", None) for name in mutant_modules()}
    return {name: c for name, c in declared.items() if isinstance(c, Contract)}


def describe(name: str) -> str:
    """The first line of a mutant module's docstring: what it gets wrong."""
    return (module(name).__doc__ or "").strip().partition("\n")[0]


def base_of(name: str) -> str:
    """The implementation a mutant changes: ``reference`` (``_base.mutant``), or the package of
    tests/independent/ its ``VARIANT`` (``_variants.Variant``) edits."""
    variant = getattr(module(name), "VARIANT", None)
    return variant.base if isinstance(variant, Variant) else "reference"


def misfiled() -> list[str]:
    """What in the folder is neither a helper nor a mutant module with its contract, said so
    that the fix is plain."""
    problems = [
        f"tests/mutants/{p.name}: not a Python module (the folder holds mutant modules and "
        "their helpers, _*.py)"
        for p in sorted(MUTANT_DIR.iterdir())
        if p.suffix != ".py" and p.name != "__pycache__"
    ]
    for name in mutant_modules():
        mutant = module(name)
        where = f"tests/mutants/{name}.py"
        if not isinstance(getattr(mutant, "CONTRACT", None), Contract):
            problems.append(
                f"{where}: no CONTRACT. A mutant module declares CONTRACT = contract(...) "
                "(tests/mutants/_contract.py); a helper module's name starts with _"
            )
        if not callable(getattr(mutant, "adapter", None)):
            problems.append(f"{where}: no adapter(), which the suite loads as --impl")
        if not describe(name):
            problems.append(f"{where}: no docstring; its first line says what the mutant breaks")
    return problems
