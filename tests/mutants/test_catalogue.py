"""The mutant catalogue itself, without running the suite: every module of tests/mutants
is a helper or a mutant with its contract, every contract is well formed, and every
MUST of the spec is a rule some mutant is meant to break.

These run in ``make test``; the runs of the mutants (test_mutants.py) run in
``make mutants``.
"""

from __future__ import annotations

from conformance.catalog.files import spec_dir
from conformance.catalog.requirements import requirements_in
from tests.mutants._catalogue import contracts, misfiled
from tests.mutants._contract import Contract

#: mutant module -> the contract it declares
MUTANTS: dict[str, Contract] = contracts()


def test_every_mutant_module_is_catalogued() -> None:
    """Each module of the folder is a helper or a mutant with its contract, and nothing else
    is there: a mutant without a CONTRACT would never run."""
    problems = misfiled()
    assert not problems, "\n".join(problems)
    assert MUTANTS, "no mutant module declares a CONTRACT"


def contract_problems(mutant: Contract, known: set[str]) -> list[str]:
    """What is wrong with one declared contract, against the spec's rules ``known``."""
    extras, maybe = set(mutant.extras), set(mutant.maybe)
    problems = [] if mutant.breaks else ["it breaks no rule"]
    problems += [f"{rid} is both broken and an extra" for rid in mutant.breaks & extras]
    problems += [f"{rid} is both failed and a maybe" for rid in mutant.fails & maybe]
    problems += [f"{rid} is no rule of the spec" for rid in (mutant.fails | maybe) - known]
    reasons = [*mutant.extras.values(), *mutant.maybe.values()]
    if not all(reason.strip() for reason in reasons):
        problems.append("an extra or a maybe has no reason")
    return sorted(problems)


def test_every_extra_is_explained_and_every_target_exists() -> None:
    known = set(requirements_in(spec_dir()))
    problems = [
        f"tests/mutants/{name}.py: {problem}"
        for name, mutant in MUTANTS.items()
        for problem in contract_problems(mutant, known)
    ]
    assert not problems, "\n".join(problems)


def test_every_must_is_meant_to_be_broken_by_a_mutant() -> None:
    musts = {rid for rid, r in requirements_in(spec_dir()).items() if r.level == "MUST"}
    targeted = {rid for mutant in MUTANTS.values() for rid in mutant.breaks}
    assert sorted(musts - targeted) == []
