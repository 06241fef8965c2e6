"""The spec folder as a user may have it: a ``$`` in its path, a document that is a link
to nothing, a requirement whose directive Sphinx refused.

None of these may cost another requirement its verdict, nor end in a traceback:
the run goes on with the folder as it is, or stops with a usage error naming the
problem.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.reports.json_report import read_report
from tests.paths import REPO
from tests.suite.test_isolation import outcomes, write_spec
from tests.suite.test_outside_world import finish, suite

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_dollar_in_the_spec_s_path_reaches_pytest_unexpanded(
    workers: str, tmp_path: Path
) -> None:
    folder = tmp_path / "price$HOME" / "spec"  # HOME is set: expandvars would replace it
    folder.mkdir(parents=True)
    with suite(write_spec(folder, "crash"), "-n", workers) as process:
        output = finish(process)
    assert process.returncode == 1, output
    assert outcomes(read_report(folder / "report.json"))["FAULT-1"] == ("failed", "crash")


@pytest.mark.parametrize("target", ["nowhere.rst", "loop.rst"], ids=["dangling", "itself"])
def test_a_document_that_links_to_nothing_is_a_usage_error_naming_it(
    target: str, tmp_path: Path
) -> None:
    folder = write_spec(tmp_path, "crash")
    (folder / "loop.rst").symlink_to(folder / target)
    with suite(folder) as process:
        output = finish(process)
    assert process.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert f"{folder / 'loop.rst'} is a symbolic link to" in output
    assert "Traceback" not in output
    assert not (folder / "report.json").exists()


def test_the_examples_of_a_refused_requirement_are_not_counted_for_the_one_above(
    tmp_path: Path,
) -> None:
    folder = write_spec(tmp_path, "crash")
    spec = folder / "faults.rst"
    text = spec.read_text().replace("   import os\n   os._exit(70)", "   pass")
    spec.write_text(
        text.replace("OK-AFTER-1", "A.B-1").replace(
            "   import json\n", "   import os\n   os._exit(9)\n"
        )
    )
    with suite(folder) as process:
        output = finish(process)
    assert process.returncode == 1, output
    assert "requirement ID 'A.B-1' may hold only capital letters" in output
    found = outcomes(read_report(folder / "report.json"))
    assert found == {
        "OK-BEFORE-1": ("passed", ""),
        "FAULT-1": ("passed", ""),  # A.B-1's crash is not its own
        "OK-AFTER-2": ("passed", ""),
    }, output


def test_what_the_spec_s_conf_py_does_to_its_process_is_there_for_the_examples(
    tmp_path: Path,
) -> None:
    """Under sphinx-build the examples run in the process that ran conf.py, in its folder:
    a folder it puts on sys.path (relative to that folder) is importable by them."""
    folder = tmp_path / "spec"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "helper_of_the_spec.py").write_text("ANSWER = 42\n")
    (folder / "conf.py").write_text(
        "import os, sys\n"
        "sys.path.insert(0, os.path.abspath('lib'))\n"
        "os.environ['SET_BY_CONF'] = 'yes'\n"
        "extensions = ['sphinx.ext.doctest', 'conformance.sphinx_ext.requirements']\n"
    )
    (folder / "index.rst").write_text(
        "Conf\n====\n\n.. requirement:: CONF-1\n   :profile: core\n   :level: MUST\n\n"
        "   It MUST see what conf.py did.\n\n"
        ".. testcode::\n\n   import os\n   import helper_of_the_spec\n"
        "   print(helper_of_the_spec.ANSWER, os.environ['SET_BY_CONF'])\n\n"
        ".. testoutput::\n\n   42 yes\n"
    )
    with suite(folder) as process:
        output = finish(process)
    assert process.returncode == 0, output
    assert outcomes(read_report(folder / "report.json"))["CONF-1"] == ("passed", "")


@pytest.mark.parametrize(
    "locale",
    [{}, {"LC_ALL": "POSIX", "PYTHONUTF8": "0"}],
    ids=["utf-8", "posix"],
)
@pytest.mark.parametrize("name", [b"caf\xe9", "café".encode()], ids=["latin-1", "utf-8"])
def test_a_folder_name_the_file_system_cannot_spell_as_text_is_no_internal_error(
    name: bytes, locale: dict[str, str], tmp_path: Path
) -> None:
    """A spec folder, cache folder and report path whose names are not UTF-8, or not
    ASCII under the POSIX locale (the file system's encoding then), reach Python as
    lone surrogates: they are paths like any other."""
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/" + name))
    folder.mkdir()
    write_spec(folder, "crash")
    cache = Path(os.fsdecode(os.fsencode(tmp_path) + b"/cache-" + name))
    report = Path(os.fsdecode(os.fsencode(folder) + b"/report-" + name + b".json"))
    environment = {**os.environb, b"XDG_CACHE_HOME": os.fsencode(cache)}
    environment.update((os.fsencode(k), os.fsencode(v)) for k, v in locale.items())
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--spec-root", os.fsencode(folder),
         "--report", os.fsencode(report), "-q"],
        capture_output=True, timeout=300, check=False, cwd=REPO, env=environment,
    )  # fmt: skip
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert done.returncode == 1, output
    assert "INTERNALERROR" not in output
    assert outcomes(read_report(report))["FAULT-1"] == ("failed", "crash")
    assert cache.is_dir()
