"""The adapter for ``dask_impl`` (``--impl dask``; needs the ``dask`` extra)."""

from __future__ import annotations

import os
from pathlib import Path

from conformance.adapter import Adapter, fw_module
from conformance.catalog.expectations import load_entries

#: what Dask fails on every cluster
XFAILS_FILE = Path(__file__).with_name("dask_xfails.toml")
#: what hangs on Dask: never run
SKIPS_FILE = Path(__file__).with_name("dask_skips.toml")
#: what a cluster in other processes cannot do besides: share memory with the caller
REMOTE_XFAILS_FILE = Path(__file__).with_name("dask_remote_xfails.toml")
#: what hangs only on a cluster in other processes
REMOTE_SKIPS_FILE = Path(__file__).with_name("dask_remote_skips.toml")


def adapter() -> Adapter:
    """Build the Dask adapter (imports dask only when chosen)."""
    import dask_impl  # noqa: PLC0415

    remote = bool(os.environ.get(dask_impl.ENV_SCHEDULER))
    dask_impl.client()  # start (or reach) the cluster now: a broken one fails fast
    profiles = frozenset({"core", "async", "dynamic"})
    fw = fw_module(dask_impl, profiles, "forkwait on Dask, as the spec's examples see it")
    import distributed  # noqa: PLC0415

    return Adapter(
        name="dask",
        version=f"{dask_impl.__version__} (distributed {distributed.__version__})",
        fw=fw,
        profiles=profiles,
        expected_failures={
            **load_entries(XFAILS_FILE),
            **(load_entries(REMOTE_XFAILS_FILE) if remote else {}),
        },
        skips={
            **load_entries(SKIPS_FILE, "skips"),
            **(load_entries(REMOTE_SKIPS_FILE, "skips") if remote else {}),
        },
    )
