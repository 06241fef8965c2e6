"""What the latitude runs may fail, and why: the spec's to-do, and the latitudes no variant takes.

``KNOWN`` lists each example that fails a MUST on an implementation that is right,
by run, requirement and example number, with what it leans on that no sentence
states. tests/latitudes/test_latitudes.py requires each run to fail exactly these:
fixing an example (or stating what it leans on) means removing its entry.
"""

from __future__ import annotations

#: run -> (requirement, example number) -> what the example leans on that no sentence states
KNOWN: dict[str, dict[tuple[str, int], str]] = {}

#: SHOULDs no variant takes, and why
SHOULD_EXEMPT: dict[str, str] = {}
#: requirements whose text grants a MAY that no variant takes, and why
MAY_EXEMPT: dict[str, str] = {
    "NEST-UNWAITED-1": "its MAY is the program's (code may fork tasks it never waits on), "
    "not a choice left to implementations",
}

#: latitudes the pages grant outside the requirement boxes: a quote (which must still be in
#: the page) -> the variant that takes it, or why none does
PROSE_LATITUDES: dict[tuple[str, str], str] = {
    ("errors.rst", "An implementation MAY report this"): "unretrieved_failures_silent",
    ("errors.rst", "Whether each ``wait`` raises the very same exception object is left open"): (
        "failures_as_runtime_error"
    ),
    ("determinism.rst", "a compiler MAY\nconvert Python arguments"): (
        "scripted_calls_convert_arguments"
    ),
    ("futures-api.rst", "hand (``set_result`` or ``set_exception`` while its task runs) is left"): (
        "no variant: no example completes a forked future by hand before it is done, so no "
        "check can lean on the reference's refusal (FUTURE-SET-ONCE-1's probe does so once it "
        "is done, which that rule's MUST covers)"
    ),
    ("futures-api.rst", "What a future's callbacks see of :mod:`contextvars` is left open"): (
        "callbacks_in_completer_context"
    ),
    ("futures-api.rst", "Which exception a bad argument gets is left open"): (
        "errors_of_other_types"
    ),
    ("futures-api.rst", "The exception MAY be the callback's own or MAY wrap it"): (
        "then_errors_wrapped"
    ),
    ("futures-api.rst", "An implementation MAY\nreport it"): "callback_errors_warned",
    ("futures-api.rst", "nothing says\nwhether it runs before or after ``wait()`` returns"): (
        "callbacks_before_waiters"
    ),
    ("kwargs.rst", "An implementation MAY check the call when forking"): (
        "keywords_checked_at_fork"
    ),
    ("lifecycle.rst", "How many threads run tasks, and when they start, is not specified"): (
        "waits_never_run_tasks"
    ),
    ("script.rst", "In plain Python, ``fork`` MAY run the task to completion"): (
        "plain_forks_in_background"
    ),
    ("script.rst", "they MAY run at\nonce or in the background"): "ignored_helpers_fork_at_once",
    ("trace.rst", "How often ``trace`` runs ``func`` is not specified"): (
        "trace_checks_and_replays_in_order"
    ),
    ("trace.rst", "Implementations SHOULD run the recorded forks concurrently"): (
        "trace_checks_and_replays_in_order"
    ),
    ("future.rst", "Which failure the combined future raises when several\nfailed is left open"): (
        "collect_all_fails"
    ),
}
