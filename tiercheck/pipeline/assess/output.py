"""The report folder of one run: chosen, checked and named in one place.

`--out DIR` or `reports/<sdk>/<run-id>/`. It is checked before any work (a clone and a build are
wasted if the reports cannot be written), and its run id is decided here, not read back from the
folder's name by whoever writes into it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from tiercheck.paths import writable_dir
from tiercheck.pipeline.assess.clock import run_id

__all__ = ["ReportFolder", "report_folder"]

#: Where runs go when `--out` is not given (relative to the working directory).
REPORTS = Path("reports")


@dataclass(frozen=True)
class ReportFolder:
    """The folder every file of one run goes under, and the run's id."""

    path: Path
    run_id: str

    @property
    def raw(self) -> Path:
        """The harness's own results, `raw/<revision>/<leg>/`."""
        return self.path / "raw"

    @property
    def logs(self) -> Path:
        """Build and server output."""
        return self.path / "logs"


def report_folder(out: Path | None, sdk_name: str, started: datetime) -> ReportFolder:
    """`out`, else `reports/<sdk>/<run-id>/`; UsageError (before any work) if it cannot be one.

    Nothing is created here: the first writer creates it.
    """
    default = REPORTS / sdk_name.replace("/", "__") / run_id(started)
    path = out if out is not None else default
    writable_dir(path, "--out" if out is not None else "the reports folder")
    resolved = path.resolve()
    # An explicit --out names the run after itself, as a default folder does.
    return ReportFolder(resolved, resolved.name if out is not None else run_id(started))
