"""The executor's channel cannot drift: whatever an example does to it fails that example.

An example that closes the executor's request pipe, writes a well-formed frame
into its answers, forks a child that carries on into the executor's loop, or
sends the executor the harness's own deadline signal fails (or passes) by
itself; the examples after it keep their verdicts, and the harness never shows
a traceback of its own. Each run is ``forkwait-conformance`` on the small spec
of test_isolation.py (FAULT-1 the misbehaving example), bounded in time.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from conformance.executor import wire
from conformance.reports.json_report import read_report
from conformance.sphinx_doctest.model import Location
from conformance.sphinx_doctest.outcome import DeadlineExceeded, FailureKind
from conformance.sphinx_doctest.runners import WHERE_NOTE, DoctestResult, ExampleFailure
from tests.suite.test_executor_boundary import fault_alone
from tests.suite.test_isolation import outcomes
from tests.suite.test_outside_world import finish, suite, with_fault

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: the pipes of the executor's own process, by their access mode
PIPES = """
import fcntl, os, stat
def pipes(mode):
    found = []
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == mode:
                    found.append(fd)
        except OSError:
            pass
    return found
"""


def no_harness_traceback(output: str) -> None:
    assert "Traceback" not in output.partition("= FAILURES =")[0], output
    assert "KeyError" not in output, output
    assert "INTERNALERROR" not in output, output


def test_an_example_that_closes_the_request_pipe_fails_itself_not_the_next(
    tmp_path: Path,
) -> None:
    code = PIPES + "for fd in pipes(os.O_RDONLY):\n    os.close(fd)"
    with suite(with_fault(tmp_path, code)) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)  # not replayed: the fresh executors live
    assert "the example closed or replaced the executor's" in output


@pytest.mark.parametrize("then", ["raises", "passes"])
def test_a_frame_written_into_the_answers_is_not_taken_as_the_answer(
    then: str, tmp_path: Path
) -> None:
    payload = b'{"result": null, "threads": [], "restored": [], "seq": 1}'
    frame = wire.MAGIC + len(payload).to_bytes(4, "big") + payload
    code = (
        PIPES
        + f"for fd in pipes(os.O_WRONLY):\n    os.write(fd, {frame!r})\n"
        + ("raise ValueError('guilty')" if then == "raises" else "import time\ntime.sleep(0.5)")
    )
    with suite(with_fault(tmp_path, code)) as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)
    assert "the example broke the executor's channel" in output
    no_harness_traceback(output)


def test_a_fork_child_that_carries_on_ends_without_answering(tmp_path: Path) -> None:
    code = "import os\nchild = os.fork()  # both go on, back into the executor's loop"
    with suite(with_fault(tmp_path, code)) as process:
        output = finish(process)
    assert process.returncode == 0, output
    assert set(outcomes(read_report(tmp_path / "report.json")).values()) == {("passed", "")}
    no_harness_traceback(output)


def test_the_deadline_signal_sent_by_the_example_is_told_by_its_name(tmp_path: Path) -> None:
    code = "import os, signal, time\nos.kill(os.getpid(), signal.SIGUSR2)\ntime.sleep(1)"
    started = time.monotonic()
    with suite(with_fault(tmp_path, code), "--example-timeout", "30") as process:
        output = finish(process)
    assert process.returncode == 1, output
    fault_alone(tmp_path, "crash", output)
    message = read_report(tmp_path / "report.json").by_id()["FAULT-1"].message
    assert "killed by SIGUSR2, which the harness did not send" in message
    assert "sent by the example itself or from outside" in message
    assert "timed out" not in message
    assert time.monotonic() - started < 25  # no deadline was waited out


def test_what_an_example_did_crosses_the_channel_as_data_with_its_kind() -> None:
    """A failure's kind and a deadline's seconds arrive typed: nothing reads them back
    out of a text (a timeout was the text ``Timeout (>2s)``, parsed on arrival)."""
    failure = ExampleFailure(
        "raise ValueError('v')\n",
        Location(Path("/spec/a.rst"), 3, "a.rst"),
        3,
        FailureKind.EXCEPTION,
        "Traceback (most recent call last):\n  ...\nValueError: v\n",
        "ValueError",
    )
    result = DoctestResult(1, [failure], "the doctest report")
    data = json.loads(json.dumps(wire.result_data(result)))
    assert wire.result_from(data) == result
    stopped = DeadlineExceeded(2.0, "--example-timeout")
    where = f"{WHERE_NOTE}Traceback (most recent call last):\n  ...\n"
    sent = json.loads(json.dumps(wire.interruption_data(stopped, where)))
    arrived = wire.interruption_from(sent)
    assert isinstance(arrived, DeadlineExceeded)
    assert (arrived.seconds, arrived.setting, arrived.__notes__) == (
        2.0,
        "--example-timeout",
        [where],
    )
    unknown = {**data, "failures": [{**data["failures"][0], "kind": "Timeout (>2s)"}]}
    with pytest.raises(ValueError, match="is not a valid FailureKind"):
        wire.result_from(unknown)  # the harness's reader takes it for a broken channel
