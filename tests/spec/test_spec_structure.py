"""The spec itself: read by Sphinx, every requirement has examples, every example a rule."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conformance.adapter import PROFILES
from conformance.catalog.files import spec_conf_dir, spec_dir
from conformance.catalog.requirements import catalog_of, is_example, walk_document
from conformance.catalog.vocabulary import LEVELS
from conformance.sphinx_doctest.inputs import inputs_of
from conformance.sphinx_doctest.project import (
    ReadProject,
    SphinxProject,
    SphinxSource,
    default_cache_root,
    read_project,
)


def spec() -> ReadProject:
    return read_project(spec_dir(), SphinxSource(spec_conf_dir()), default_cache_root())


def test_the_spec_reads_without_a_warning() -> None:
    assert spec().read_warnings == ""


def test_the_spec_has_documents_and_requirements() -> None:
    catalog = catalog_of(spec())
    assert len(spec().docnames()) >= 10
    assert len(catalog) >= 30
    assert {r.profile for r in catalog.values()} >= {"core", "async", "dynamic"}
    assert {r.profile for r in catalog.values()} <= set(PROFILES)
    assert {r.level for r in catalog.values()} <= set(LEVELS)


def test_every_requirement_has_an_example_and_every_example_a_requirement() -> None:
    project = spec()
    examples: Counter[str] = Counter()
    orphans: list[str] = []
    for docname in project.docnames():
        for node, requirement in walk_document(project, docname):
            if is_example(node):
                if requirement is None:
                    orphans.append(f"{docname}.rst, line {node.line}")
                else:
                    examples[requirement.id] += 1
    assert orphans == [], f"examples outside any requirement: {orphans}"
    bare = [req_id for req_id in catalog_of(project) if not examples[req_id]]
    assert bare == [], f"requirements without examples: {bare}"


def test_every_rule_says_its_level_in_rfc_2119_words() -> None:
    for requirement in catalog_of(spec()).values():
        assert requirement.level in requirement.text, requirement.id


def test_the_profiles_page_lists_the_fw_names_the_suite_checks() -> None:
    """docs/profiles.rst's table says, per profile, what PROFILE_NAMES says."""
    from docutils import nodes  # noqa: PLC0415

    from conformance.catalog.vocabulary import PROFILE_NAMES  # noqa: PLC0415

    table = next(spec().doctree("profiles").findall(nodes.table))
    rows = [
        [entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)
    ]
    header, body = rows[0], rows[1:]
    listed = {
        profile: {name.strip() for row in body if row[i] for name in row[0].split(",")}
        for i, profile in enumerate(header)
        if i
    }
    assert listed == {profile: set(names) for profile, names in PROFILE_NAMES.items()}


def test_an_unchanged_spec_is_run_without_starting_sphinx(tmp_path: Path) -> None:
    """Every extension the spec loads notes what it reads (or is Sphinx's own), so that its
    read can be kept and a run of the unchanged spec starts no Sphinx application: one that
    does not declare it would quietly bring Sphinx back into every run."""
    fresh = read_project(spec_dir(), SphinxSource(spec_conf_dir()), tmp_path)
    assert isinstance(fresh, SphinxProject)  # an empty cache: Sphinx read it
    found = inputs_of(fresh, 0)
    assert not isinstance(found, str), found
