"""The adapter guide shows the real threads adapter, and the shipped engine adapters load.

docs/validating.rst teaches from conformance/adapters/threads.py, shown in a
code block of its own source (so that the page reads whole as text) that must
equal the file, and from its lists through ``.. adapter-source::``; these
tests check that the copy is the file, that the directive renders a file's own
text (so the guide cannot drift), and that the adapters it describes are what
``--impl threads`` and ``--impl ray`` load.
(The gevent adapter's own tests are in test_gevent_adapter.py: importing it
monkey-patches the process, so they load it in a child process.)
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import re
from pathlib import Path

import pytest

import conformance.adapters
from conformance.adapter import AdapterError, available, load_adapter
from conformance.adapters import threads
from conformance.catalog.expectations import check_known, load_entries
from conformance.reports.json_report import read_report
from tests import sphinx_app
from tests.paths import DOCS

#: the shipped adapters' expected-failures and skips files, found by name: importing the
#: gevent adapter would monkey-patch this process
ADAPTERS = Path(conformance.adapters.__file__).parent


def test_writing_an_adapter_comes_right_after_installing() -> None:
    page = (DOCS / "validating.rst").read_text(encoding="utf-8")
    sections = re.findall(r"^(.+)\n-{3,}$", page, re.M)
    assert sections[:2] == ["Installing and running it", "Writing an adapter"]
    assert ".. profile-needs::" in page


def test_the_page_shows_the_threads_adapter_as_the_file_is() -> None:
    page = (DOCS / "validating.rst").read_text(encoding="utf-8")
    head = (
        ".. code-block:: python\n   :caption: conformance/adapters/threads.py\n"
        "   :class: forkwait-adapter-source\n\n"
    )
    assert page.count(head) == 1
    body = page.partition(head)[2]
    shown = []
    for line in body.splitlines():
        if line and not line.startswith("   "):
            break
        shown.append(line.removeprefix("   "))
    assert "\n".join(shown).strip("\n") == Path(threads.__file__).read_text().strip("\n"), (
        "docs/validating.rst shows another threads.py than conformance/adapters/threads.py: "
        "copy the file into the code block (indented by 3 spaces)"
    )


def build(tmp_path: Path, page: str) -> tuple[str, str]:
    """The page as text, and what Sphinx warned while building it."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "extensions = ['conformance.sphinx_ext.requirements']\n", encoding="utf-8"
    )
    (source / "index.rst").write_text(page, encoding="utf-8")
    _, warnings = sphinx_app.build(source, tmp_path / "out", tmp_path / "doctrees", "text")
    return (tmp_path / "out" / "index.txt").read_text(encoding="utf-8"), warnings


def test_the_directive_shows_the_adapter_file_itself(tmp_path: Path) -> None:
    text, warnings = build(
        tmp_path,
        "Guide\n=====\n\n.. adapter-source:: conformance.adapters.threads\n\n"
        ".. adapter-source:: conformance.adapters.threads threads_xfails.toml\n\n"
        ".. profile-needs::\n",
    )
    for path in (Path(threads.__file__), threads.XFAILS_FILE):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                assert line.strip() in text, f"{path.name}: {line!r} is not shown"
    assert "collect_all, wait_all" in text  # core's names, from the vocabulary
    assert "adapter-source conformance" not in warnings  # (a second app warns of re-adding)


def test_a_module_that_does_not_exist_is_named(tmp_path: Path) -> None:
    _, warnings = build(tmp_path, "Guide\n=====\n\n.. adapter-source:: conformance.adapters.nope\n")
    assert "adapter-source conformance.adapters.nope: No module named" in warnings


def test_the_threads_adapter_is_the_standard_library_itself() -> None:
    adapter = load_adapter("threads")
    assert {"core", "async"} <= adapter.profiles
    assert adapter.fw.wait is concurrent.futures.Future.result
    assert adapter.fw.Future is concurrent.futures.Future
    future = adapter.fw.fork(pow, 2, 10)
    assert isinstance(future, concurrent.futures.Future)
    assert adapter.fw.wait(future) == 1024
    assert adapter.fw.wait(adapter.fw.collect_all([future])) == [future]


@pytest.mark.parametrize("name", ["threads", "ray", "gevent"])
def test_declared_lists_name_real_requirements(name: str) -> None:
    # how many examples each requirement has, from the reference's recorded run of all of them
    counts = {
        r.id: len(r.results) for r in read_report(DOCS / "_results/reference.json").requirements
    }
    for path, what in (
        (ADAPTERS / f"{name}_xfails.toml", "expected-failures"),
        (ADAPTERS / f"{name}_skips.toml", "skips"),
    ):
        entries = load_entries(path, what)
        assert entries, f"{path.name} declares nothing"
        check_known(entries, counts, path.name)


def test_the_shipped_engines_are_registered() -> None:
    assert {"threads", "ray", "gevent"} <= set(available())


def square(x: int) -> int:
    return x * x


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="the ray extra is not installed"
)
def test_the_ray_adapter_starts_a_local_ray_and_forks_on_it() -> None:
    import ray  # noqa: PLC0415

    adapter = load_adapter("ray")
    try:
        assert adapter.profiles >= {"core"}
        future = adapter.fw.fork(square, 32)  # a function: ray.remote refuses builtins
        assert isinstance(future, ray.ObjectRef)
        assert adapter.fw.wait(future) == 1024
    finally:
        ray.shutdown()


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is not None, reason="the ray extra is installed"
)
def test_without_ray_the_error_names_the_extra() -> None:
    with pytest.raises(AdapterError, match=r"forkwait-spec\[ray\]"):
        load_adapter("ray")
