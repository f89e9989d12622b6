"""Every file the request names, read and checked before any work.

A folder or a non-UTF-8 file given as `--expected-failures` used to be found only when the
baseline was applied, after every leg had run: a minute of clones, builds and legs, then one
error line. Each file the command line names is read here with the loader the run itself uses,
so whatever it would refuse later is refused now, with one line and exit 2. (The registry and
the token file are read while the command line is parsed, which is earlier still.)

A relative `--expected-failures` is relative to the SDK's checkout (the GitHub Action passes
`conformance/baseline.yml`): with `--sdk-path` it is checked here; for a clone it can only be
checked once the clone exists, which `check_checkout_inputs` does before anything is built. A
file given to one leg (`client=FILE`) that was written for the other is refused here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tiercheck.config.baseline import load_baseline
from tiercheck.config.baseline_spec import BaselineSpec
from tiercheck.errors import ConfigError, UsageError
from tiercheck.history.store import HistoryError, HistoryStore
from tiercheck.pipeline.assess.request import AssessRequest

__all__ = ["check_checkout_inputs", "check_inputs"]

#: The first bytes of every SQLite 3 database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def check_inputs(request: AssessRequest) -> None:
    """Refuse (ConfigError or UsageError, exit 2) any named file the run could not use."""
    specs = request.settings.flags.baselines
    for spec in specs:
        path = Path(spec.file)
        if path.is_absolute():
            _check_baseline(spec, specs, path)
        elif request.target.sdk_path is not None:
            _check_baseline(spec, specs, request.target.sdk_path / path)
    if request.history is not None:
        check_history(request.history.path)


def check_checkout_inputs(specs: Sequence[BaselineSpec], checkout: Path) -> None:
    """The relative `--expected-failures` files of a cloned SDK, once the clone exists."""
    for spec in specs:
        if not Path(spec.file).is_absolute():
            _check_baseline(spec, specs, checkout / spec.file)


def _check_baseline(spec: BaselineSpec, specs: Sequence[BaselineSpec], path: Path) -> None:
    if path.is_dir():
        msg = f"--expected-failures {spec.text}: {path} is a directory, not a baseline file"
        raise UsageError(msg)
    if not path.exists():
        msg = f"{path}: expected-failures file not found"
        raise ConfigError(msg)
    baseline = load_baseline(path)  # the loader the run applies it with: UTF-8, shape, size, depth
    if spec.leg is None:
        return
    other = "client" if spec.leg == "server" else "server"
    if any(s.file == spec.file and s.leg in (None, other) for s in specs):
        return  # the same file is the other leg's baseline too
    problem = baseline.misfit(spec.leg)
    if problem is not None:
        raise ConfigError(f"--expected-failures {spec.text}: {problem}")


def check_history(path: Path) -> None:
    """A `--history` that exists must be an SQLite database this tiercheck can read.

    A missing file is fine (it is created), as is a database another run holds locked (the
    run waits for it, or warns at the end): only what no run could ever use is refused.
    """
    if path.is_dir():
        msg = f"--history {path}: is a directory, not a history database"
        raise UsageError(msg)
    if not path.exists():
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            msg = f"--history {path}: {parent} is not a directory"
            raise UsageError(msg)
        return
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        msg = f"--history {path}: cannot read it ({exc.strerror or exc})"
        raise UsageError(msg) from None
    if head and head != _SQLITE_HEADER:
        msg = f"--history {path}: not an SQLite database (tiercheck's history is one)"
        raise UsageError(msg)
    if head:
        try:
            HistoryStore(path, busy_timeout_s=0.5).check_readable()
        except HistoryError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return  # another run holds it; this run will wait its turn at the end
            raise UsageError(f"--{exc}") from None
