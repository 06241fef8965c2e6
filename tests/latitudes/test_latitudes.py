"""No example asks for what the text does not say: implementations that are right pass.

The mutant suite's counterpart (tests/mutants: implementations wrong in one way,
which the suite must fail). Here each implementation is right in a way the
reference is not, and the suite must pass every MUST of it:

- ``minimal_surface``: the reference behind objects offering only what a sentence
  states, claiming the reference's five profiles, and each profile alone (its ``fw``
  then holds that profile's names only, and without ``futures`` a future offers
  ``done()`` and ``wait()`` alone);
- each *latitude variant*, a module of this folder declaring ``LATITUDE``: the
  reference taking one latitude of the text the other way. It may fail the
  SHOULDs its ``LATITUDE`` names, and must fail each of them (else it takes no
  latitude); nothing else;
- each *independent implementation* (a package of tests/independent/): written
  from the docs alone, with an architecture unlike the reference's, claiming
  every profile. It may fail nothing: what it fails, the text did not ask of it
  clearly enough, or the suite asks what no sentence states. (Its one-bug
  variants are mutants: tests/mutants/_variants.py.)

Each runs through ``forkwait-conformance`` in a process of its own, as a third party
would run it (``--report``, several at a time; tests/implementation_runs.py): on the
whole spec, or, for a variant whose change only examples using some word can reach
(``add_done_callback``), on the requirements whose examples use it; under the
controlled schedules only where a controlled run goes through its change. An example
that fails one of them leans on something no sentence states: ``KNOWN``
(``_known.py``) lists each, by requirement and example, with what it leans on, and the
run must fail exactly those. The list is the spec's to-do; an example listed that
passes fails here, so it stays true.

Every SHOULD of the spec must be taken by a variant (its ``may_fail``), every
requirement whose text grants a MAY named by one (its ``where``), and every
latitude granted in prose (``PROSE_LATITUDES``) by one too; the exemptions
say why.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest

from conformance.catalog.files import spec_dir
from conformance.catalog.requirements import Requirement, requirements_in
from conformance.catalog.vocabulary import PROFILES
from tests.implementation_runs import INDEPENDENT_ARGS, PARALLEL_RUNS, Run, run_all, run_suite
from tests.latitudes._known import KNOWN, MAY_EXEMPT, PROSE_LATITUDES, SHOULD_EXEMPT
from tests.latitudes._variant import Latitude
from tests.paths import DOCS, REPO, checkout_on_path

HERE = REPO / "tests" / "latitudes"
INDEPENDENT = REPO / "tests" / "independent"
# every suite run happens in the first test's setup: more than the default 120 s
pytestmark = pytest.mark.timeout(1800)

#: the minimal surface takes no latitude: it may fail nothing
_NO_LATITUDE = Latitude(where="", granted="")


@dataclass(frozen=True)
class Target:
    """One implementation to run, and what its run may fail."""

    impl: str
    latitude: Latitude
    env: dict[str, str] = field(default_factory=dict)
    #: more options of its run
    args: tuple[str, ...] = ()


def variant_names() -> list[str]:
    """Every latitude variant: the modules of this folder but the helpers and the runner."""
    return sorted(
        p.stem
        for p in HERE.glob("*.py")
        if not p.stem.startswith(("_", "test_")) and p.stem not in ("minimal_surface", "conftest")
    )


def independent_names() -> list[str]:
    """Every independent implementation: the packages of tests/independent/ (``_variants``,
    where its mutants are written, is none)."""
    return sorted(
        p.name
        for p in INDEPENDENT.iterdir()
        if (p / "__init__.py").is_file() and not p.name.startswith("_")
    )


def latitude_of(name: str) -> Latitude:
    latitude = importlib.import_module(f"tests.latitudes.{name}").LATITUDE
    assert isinstance(latitude, Latitude), name
    return latitude


def targets() -> dict[str, Target]:
    """Every run: the minimal surface claiming all five profiles, and each profile alone
    (so that its ``fw`` holds that profile's names only); then every variant."""
    minimal = "tests.latitudes.minimal_surface:adapter"
    every_profile = Latitude(where="", granted="", schedules=True)  # its futures, under schedules
    runs = {"minimal_surface": Target(minimal, every_profile)}
    for profile in sorted(PROFILES):
        runs[f"minimal_surface_{profile}"] = Target(
            minimal, _NO_LATITUDE, {"FORKWAIT_MINIMAL_PROFILES": profile}
        )
    for name in variant_names():
        runs[name] = Target(f"tests.latitudes.{name}:adapter", latitude_of(name))
    for name in independent_names():  # under the schedules too, if it offers an explorer
        runs[f"independent_{name}"] = Target(
            f"tests.independent.{name}:adapter", every_profile, args=INDEPENDENT_ARGS
        )
    return runs


_DIRECTIVE = re.compile(r"^\.\. (?:requirement|probes):: (\S+)")


def example_text() -> dict[str, str]:
    """Requirement ID -> the text of the spec that follows its box or its probes directive,
    up to the next one: its examples and probes (a file ``docs/probes/<page>/<ID>.rst`` is
    its probes, whatever it starts with)."""
    texts: dict[str, list[str]] = {}
    for path in sorted(DOCS.rglob("*.rst")):
        current = path.stem if path.parent.parent.name == "probes" else None
        for line in path.read_text(encoding="utf-8").splitlines():
            match = _DIRECTIVE.match(line.strip())
            if match:
                current = match.group(1)
            elif current is not None:
                texts.setdefault(current, []).append(line)
    return {rid: "\n".join(lines) for rid, lines in texts.items()}


def reached(latitude: Latitude) -> list[str]:
    """The requirements a variant's change can reach: those whose examples use one of its
    ``reaches`` words, and the SHOULDs it takes."""
    words = latitude.reaches
    hit = {rid for rid, text in example_text().items() if any(w in text for w in words)}
    return sorted(hit | set(latitude.may_fail))


def run_target(target: Target, report: Path) -> Run:
    args: list[str] = []
    if not target.latitude.schedules:  # a controlled run does not go through its change
        args += ["--schedules", "0"]
    if target.latitude.reaches:  # pytest's -k: ``ID[`` begins each of ID's examples' names
        args += ["-k", " or ".join(f"{rid}[" for rid in reached(target.latitude))]
    return run_suite(target.impl, report, [*args, *target.args], target.env)


#: filled by the fixture, read by the terminal summary (tests/latitudes/conftest.py)
runs: dict[str, Run] = {}
wall_time: list[float] = []


def needed(items: list[pytest.Item]) -> set[str]:
    """The targets whose runs the selected tests read (``-k callbacks_newest_first``: one)."""
    return {
        str(item.callspec.params["name"])
        for item in items
        if isinstance(item, pytest.Function) and "latitude_runs" in item.fixturenames
    }


@pytest.fixture(scope="module")
def latitude_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Run]:
    """The runs the selected tests need; those that take longest start first."""
    folder = tmp_path_factory.mktemp("latitudes")
    every = targets()

    def longest_first(name: str) -> tuple[bool, bool, bool, str]:
        target = every[name]
        independent = target.args == INDEPENDENT_ARGS  # whole-spec runs of their own designs
        return (not independent, not target.latitude.hangs, bool(target.latitude.reaches), name)

    order = sorted(needed(request.session.items), key=longest_first)
    start = time.monotonic()
    runs.update(
        run_all({name: partial(run_target, every[name], folder / f"{name}.json") for name in order})
    )
    wall_time.append(time.monotonic() - start)
    return runs


def test_every_variant_declares_its_latitude() -> None:
    known = requirements_in(spec_dir())
    for name in variant_names():
        module = importlib.import_module(f"tests.latitudes.{name}")
        assert callable(getattr(module, "adapter", None)), name
        assert (module.__doc__ or "").strip(), f"{name}: no docstring saying what it does"
        latitude = latitude_of(name)
        assert latitude.where.strip(), name
        assert latitude.granted.strip(), name
        named = _ids(latitude.where)
        assert named <= set(known), f"{name} names {sorted(named - set(known))}"
        for rid, why in latitude.may_fail.items():
            assert known[rid].level == "SHOULD", f"{name} may fail {rid}, a {known[rid].level}"
            assert why.strip(), name
    assert set(KNOWN) <= set(targets())


def test_every_should_and_may_is_taken() -> None:
    requirements = requirements_in(spec_dir())
    latitudes = [latitude_of(name) for name in variant_names()]
    taken = {rid for latitude in latitudes for rid in latitude.may_fail}
    shoulds = {rid for rid, r in requirements.items() if r.level == "SHOULD"}
    assert sorted(shoulds - taken - set(SHOULD_EXEMPT)) == [], "SHOULDs no variant takes"
    named = {rid for latitude in latitudes for rid in _ids(latitude.where)}
    mays = {rid for rid, r in requirements.items() if _grants_may(r)}
    assert sorted(mays - named - set(MAY_EXEMPT)) == [], "MAYs of requirements no variant takes"
    assert set(MAY_EXEMPT) <= mays
    assert set(SHOULD_EXEMPT) <= shoulds


def _grants_may(requirement: Requirement) -> bool:
    return re.search(r"\bMAY\b", requirement.text) is not None


def _ids(text: str) -> set[str]:
    """The requirement IDs ``text`` names."""
    return set(re.findall(r"\b[A-Z]+(?:-[A-Z]+)*-\d+\b", text))


def test_every_latitude_in_prose_is_taken_or_exempt() -> None:
    variants = set(variant_names())
    for (page, quote), taker in PROSE_LATITUDES.items():
        text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
        assert " ".join(quote.split()) in text, f"{page} no longer says {quote!r}"
        assert taker in variants or taker.startswith("no variant: "), taker
    takers = {taker for taker in PROSE_LATITUDES.values() if taker in variants}
    boxed = {name for name in variants if _ids(latitude_of(name).where)}
    assert variants <= takers | boxed, (
        f"variants taking nothing listed: {variants - takers - boxed}"
    )


#: runs a variant's ``shows`` on the reference, then on the variant (whose adapter() patches
#: the reference: it comes second), each output followed by a line of dashes
_SHOW = """
import importlib, sys
from conformance.adapters.reference import adapter as reference
module = importlib.import_module("tests.latitudes." + sys.argv[1])
for make in (reference, module.adapter):
    adapter = make()
    exec(module.LATITUDE.shows, {"fw": adapter.fw, "explorer": adapter.explorer})
    print("--------", flush=True)
"""


@pytest.mark.parametrize("name", variant_names())
def test_the_variant_takes_its_latitude(name: str) -> None:
    """Its ``shows`` prints something else than on the reference (or it fails its SHOULDs,
    which the runs check): a variant whose patch misses does not pass for a latitude."""
    latitude = latitude_of(name)
    if not latitude.shows:
        assert latitude.may_fail, f"{name} neither shows its latitude nor fails a SHOULD"
        return
    env = checkout_on_path()
    result = subprocess.run(
        [sys.executable, "-c", _SHOW, name],
        capture_output=True, text=True, timeout=120, check=False, env=env, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    on_reference, on_variant, _ = result.stdout.split("--------\n")
    assert on_reference != on_variant, f"{name} prints {on_variant!r} as the reference does"


@pytest.mark.parametrize("name", sorted(targets()))
def test_passes_every_must_but_the_known_false_failures(
    name: str, latitude_runs: dict[str, Run]
) -> None:
    run = latitude_runs[name]
    assert not run.report.interrupted, run.output[-3000:]
    must = run.failed_examples(("MUST",))
    known = set(KNOWN.get(name, {}))
    assert must == known, (
        f"{name}: MUST examples failed that no sentence explains: {sorted(must - known)}; "
        f"listed in KNOWN but passed (remove them): {sorted(known - must)}\n" + run.output[-3000:]
    )


@pytest.mark.parametrize("name", sorted(targets()))
def test_fails_exactly_the_shoulds_it_takes(name: str, latitude_runs: dict[str, Run]) -> None:
    run = latitude_runs[name]
    others = {rid for rid, _ in run.failed_examples(("SHOULD", "MAY"))}
    may_fail = set(targets()[name].latitude.may_fail)
    assert others == may_fail, (
        f"{name} failed {sorted(others)}, takes {sorted(may_fail)}\n" + run.output[-3000:]
    )


def describe(name: str) -> str:
    """The first line of a variant's docstring: the way it takes its latitude."""
    if name.startswith("minimal_surface"):
        alone = name.removeprefix("minimal_surface").lstrip("_")
        return "the reference behind only the surface the spec states" + (
            f", claiming {alone} alone" if alone else ""
        )
    if name.startswith("independent_"):
        source = INDEPENDENT / name.removeprefix("independent_") / "__init__.py"
        tree = ast.parse(source.read_text(encoding="utf-8"))
        return "written from the docs alone: " + (ast.get_docstring(tree) or "").splitlines()[0]
    tree = ast.parse((HERE / f"{name}.py").read_text(encoding="utf-8"))
    return (ast.get_docstring(tree) or "").splitlines()[0]


def summary() -> list[str]:
    """Each run's verdict on the MUSTs and what it failed, and what the runs cost."""
    if not runs:
        return []
    width = max(len(name) for name in runs)
    lines = []
    for name, run in sorted(runs.items()):
        failed = sorted(run.failed())
        lines.append(f"  {name:<{width}}  {run.seconds:5.1f} s  failed: {', '.join(failed) or '-'}")
        lines.append(f"  {'':<{width}}  {describe(name)}")
    known = sum(len(examples) for name, examples in KNOWN.items() if name in runs)
    lines += [
        f"known false failures (KNOWN, the spec's to-do): {known} examples",
        f"latitude runs: {len(runs)} in {sum(wall_time):.0f} s wall "
        f"({PARALLEL_RUNS} at a time; {sum(r.seconds for r in runs.values()):.0f} s in all)",
    ]
    return lines
