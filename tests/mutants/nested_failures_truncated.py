"""A wait inside a task re-raises a failure as RuntimeError with its text cut to 200 characters.

Each level prefixes what it passes up ("subtask failed: ...") and keeps the
message short; a few levels keep the original message, a deep chain pushes
it out of the text.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import mutant


def wait(future: Any, /) -> Any:
    try:
        return ref.wait(future)
    except Exception as error:
        if local.state.current is None:  # the caller's own wait: as the reference
            raise
        text = ("subtask failed: " + str(error))[:200]  # the mutation: the tail is lost
        raise RuntimeError(text) from error


def adapter() -> Adapter:
    return mutant("nested-failures-truncated", wait=wait)
