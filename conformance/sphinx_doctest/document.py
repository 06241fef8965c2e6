"""A sybil ``Document`` type whose regions and examples come from Sphinx's doctree.

Stock sybil lexes a file's text and runs its regions in document order in one
namespace. Sphinx does neither: it decides which blocks exist by reading the
project (conf.py, ``only``, ``include``, autodoc), and runs them in groups,
each in a fresh namespace, setup first and ``*`` blocks last (model.py). So
here ``parse`` asks Sphinx for the document's groups, the region parser
yields one region per test block of the doctree, and ``examples()`` yields one
example per test of each group, in the order ``test_doc`` runs them - a block
in several groups is one region and several examples. Each example's
namespace is its group's, made when the example is set up (evaluators.py).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sybil import Document, Example, Region
from sybil.text import LineNumberOffsets

from conformance.sphinx_doctest.document_run import DocumentRun
from conformance.sphinx_doctest.evaluators import run_test
from conformance.sphinx_doctest.gc_pause import collector_paused
from conformance.sphinx_doctest.model import Block
from conformance.sphinx_doctest.project import ReadProject
from conformance.sphinx_doctest.specs import TestSpec, default_name, test_specs

if TYPE_CHECKING:
    from conformance.sphinx_doctest.entry import SphinxSybil


class SphinxDoctestWarning(UserWarning):
    """Something Sphinx warned about while reading a document's tests."""


class SphinxExample(Example):
    """One test of one group (or a group without tests), as a sybil example.

    Besides what sybil knows, it carries what the pytest hooks need: the test
    (``spec``), a ``variant`` run in a namespace of its own (such as a
    schedule), its pytest ``name``, whether it may be replayed to rebuild its
    group's namespace, and what a plugin wraps around its run.
    """

    def __init__(
        self,
        document: SphinxDocument,
        spec: TestSpec,
        region: Region,
        *,
        name: str,
        variant: str | None = None,
    ) -> None:
        super().__init__(document, spec.line or 0, 1, region, {})
        self.sphinx_document = document
        self.spec = spec
        self.name = name
        self.variant = variant
        #: may this test be re-run, unreported, to rebuild its group's namespace?
        self.replayable = True
        #: set when collected: the node id of the item that runs this example
        self.nodeid: str | None = None
        #: why the run stops after this example (doctest_fail_fast), if it does
        self.stop_reason: str | None = None
        #: what runs around the test (e.g. a controlled schedule)
        self.context: Callable[[], AbstractContextManager[object]] = nullcontext
        #: the head of every failure text of this example, if a plugin gives one
        self.headline: Callable[[], str] | None = None

    def variant_of(self, variant: str, name: str) -> SphinxExample:
        """The same test, run again in a namespace of its own (e.g. under a schedule)."""
        return SphinxExample(
            self.sphinx_document, self.spec, self.region, name=name, variant=variant
        )


def evaluate(example: Example) -> None:
    """The regions' evaluator (sybil calls it with the example): run the test."""
    if not isinstance(example, SphinxExample):
        raise TypeError(f"not an example of a Sphinx document: {example!r}")
    run_test(example)


def sphinx_regions(document: Document) -> Iterator[Region]:
    """The sybil parser of a SphinxDocument: one region per test block of its doctree.

    The regions are zero-width, at the line of the block in this file: docutils
    knows where a block starts, not where it ends, and blocks from an
    ``include`` or a docstring have no place in this file at all (they stand
    at its start).
    """
    if not isinstance(document, SphinxDocument):
        raise TypeError(f"sphinx_regions parses Sphinx documents only, not {document!r}")
    return document.make_regions()


class SphinxDocument(Document):
    """One Sphinx document: its groups, their namespaces, and an example per test."""

    #: the SphinxSybil this document type belongs to (set on a subclass per Sybil)
    sybil: ClassVar[SphinxSybil]

    def __init__(self, text: str, path: str, project: ReadProject, docname: str) -> None:
        super().__init__(text, path)
        self.project = project
        self.docname = docname
        groups, warned = project.groups(docname)
        if warned:
            warnings.warn(SphinxDoctestWarning(warned.strip()), stacklevel=1)
        self.specs = test_specs(groups)
        flags: int = project.config.doctest_default_flags
        self.run = DocumentRun(groups, project.builder, flags, self.replayable)
        self._regions: dict[int, Region] = {}
        self._path = Path(path).resolve()
        self._lines = LineNumberOffsets(text)
        self._examples: list[SphinxExample] = []

    @classmethod
    def parse(cls, path: str, *parsers: Any, encoding: str = "utf-8") -> Document:
        project = cls.sybil.project()
        docname = cls.sybil.docname_of(Path(path))
        if docname is None:
            raise ValueError(f"{path} is not a document of the Sphinx project {project.srcdir}")
        text = Path(path).read_text(encoding=project.config.source_encoding)
        with collector_paused():  # nothing built here is garbage (gc_pause.py)
            document = cls(text, path, project, docname)
        for parser in parsers:
            for region in parser(document):
                document.add(region)
        return document

    def make_regions(self) -> Iterator[Region]:
        for spec in self.specs:
            key = id(spec.code) if spec.code is not None else id(spec)
            if key not in self._regions:
                start = self._offset(spec.code)
                region = self._regions[key] = Region(start, start, spec.code, evaluate)
                yield region

    def _offset(self, block: Block | None) -> int:
        location = block.location if block is not None else None
        if location is None or location.line is None or location.path is None:
            return 0
        if location.path != self._path and location.path.resolve() != self._path:
            return 0
        return self._lines.offsets.get(location.line - 1, 0)

    def examples(self) -> Iterator[Example]:
        """One example per test, in the order Sphinx runs them (not in text order)."""
        if not self._examples:
            for spec in self.specs:
                key = id(spec.code) if spec.code is not None else id(spec)
                region = self._regions.get(key) or Region(0, 0, spec.code, evaluate)
                self._examples.append(SphinxExample(self, spec, region, name=default_name(spec)))
        yield from self._examples

    def replayable(self, group: str, index: int) -> bool:
        """May test ``index`` of ``group`` be re-run to rebuild the group's namespace?"""
        faulted = self.sybil.faulted_nodeids()
        return all(
            example.replayable and example.nodeid not in faulted
            for example in self._examples
            if example.spec.group == group and example.spec.index == index
        )


def document_type(sybil: SphinxSybil) -> type[SphinxDocument]:
    """A SphinxDocument class bound to one SphinxSybil (``parse`` is a classmethod)."""
    return type("SphinxDocument", (SphinxDocument,), {"sybil": sybil})


__all__ = [
    "SphinxDoctestWarning",
    "SphinxDocument",
    "SphinxExample",
    "document_type",
    "sphinx_regions",
]
