"""Which seed draws the generated programs: fixed, unless the run asks for another.

Its own module, free of hypothesis, so that the harness can pass
``--probe-seed`` on without importing the generator.
"""

from __future__ import annotations

import os

#: the environment variable that carries ``--probe-seed`` to the examples
SEED_ENV = "FORKWAIT_PROBE_SEED"
#: the seed of a run that names none: every run draws the same programs
DEFAULT_SEED = 0


def chosen_seed() -> int:
    """``$FORKWAIT_PROBE_SEED``, or the default."""
    return int(os.environ.get(SEED_ENV) or DEFAULT_SEED)


__all__ = ["DEFAULT_SEED", "SEED_ENV", "chosen_seed"]
