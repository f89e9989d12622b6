"""What the command line asks of a matrix, as typed requests: `tier-check matrix` (run the rows
here), `matrix plan` (the jobs for GitHub Actions) and `matrix merge` (the jobs' folders back
into one matrix).

`cli/` parses argv into one of these and hands it to `local.run_matrix`,
`distributed.plan_matrix` or `distributed.merge_matrix`; which rows, which files, what is
written and the exit code are decided there. A request whose flags contradict each other
cannot be made: it is refused (UsageError, exit 2) as it is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tiercheck.config.registry import Registry
from tiercheck.errors import UsageError

__all__ = [
    "FailOn",
    "MatrixBudgets",
    "MatrixMergeRequest",
    "MatrixPlanRequest",
    "MatrixReports",
    "MatrixRequest",
    "RowOptions",
    "RowSelection",
]

#: `--fail-on`: exit 1 on a regression against `--previous`, or a row below its claimed tier.
FailOn = Literal["regression", "failure"]


@dataclass(frozen=True)
class RowSelection:
    """The rows asked for, in this order: each `--sdk`, the rows of `--matrix`, then `--all`."""

    #: `--sdk NAME[@REF]` texts, as given (read by `rows.parse_row`).
    sdk: tuple[str, ...] = ()
    #: `--matrix FILE`: a YAML file of rows.
    matrix_file: Path | None = None
    #: `--all`: every line of the registry.
    every_line: bool = False
    #: `--stable` (with `--all`): every line of the registry at `@stable` too.
    every_stable: bool = False

    def __post_init__(self) -> None:
        if self.every_stable and not self.every_line:
            msg = "--stable adds each line of --all at @stable: give --all too"
            raise UsageError(msg)


@dataclass(frozen=True)
class MatrixReports:
    """Where a matrix is written, what it is compared with and what fails the command."""

    #: `--out`; None: `reports/matrix/<run-id>/`.
    out: Path | None = None
    #: `--previous matrix.json`, as given (the messages quote it so).
    previous: str | None = None
    fail_on: frozenset[FailOn] = frozenset()
    #: `$GITHUB_STEP_SUMMARY`: the file the matrix's Markdown is appended to.
    step_summary: Path | None = None

    def __post_init__(self) -> None:
        if "regression" in self.fail_on and not self.previous:
            msg = (
                "--fail-on regression compares with a previous matrix: give --previous matrix.json"
            )
            raise UsageError(msg)


@dataclass(frozen=True)
class MatrixBudgets:
    """What the rows share on this machine; None: one per core."""

    #: Client scenario processes at once across every row.
    concurrency: int | None = None
    #: Builds at once across every row.
    max_builds: int = 2
    #: Rows at once.
    max_rows: int | None = None

    def __post_init__(self) -> None:
        for flag, value in (
            ("concurrency", self.concurrency),
            ("max-builds", self.max_builds),
            ("max-rows", self.max_rows),
        ):
            if value is not None and value < 1:
                raise UsageError(f"--{flag} must be at least 1, not {value}")


@dataclass(frozen=True)
class RowOptions:
    """What every row's own `tier-check` is given besides its row: governance, harness, history."""

    skip_governance: bool = False
    #: `--governance-snapshot FILE`: every row replays it.
    governance_snapshot: Path | None = None
    #: `--as-of DATE`, as given (each row reads it).
    as_of: str | None = None
    harness_version: str | None = None
    reuse: bool = False
    #: `--history PATH`; None: each row's default.
    history: Path | None = None
    #: `--no-history`: rows neither read nor add to a history.
    no_history: bool = False


@dataclass(frozen=True)
class MatrixRequest:
    """`tier-check matrix`: run the rows on this machine and write one matrix."""

    registry: Registry
    rows: RowSelection
    cache_dir: Path
    reports: MatrixReports = field(default_factory=MatrixReports)
    budgets: MatrixBudgets = field(default_factory=MatrixBudgets)
    options: RowOptions = field(default_factory=RowOptions)
    #: The environment every row runs in.
    environ: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MatrixPlanRequest:
    """`tier-check matrix plan`: the rows as GitHub Actions jobs."""

    registry: Registry
    rows: RowSelection
    cache_dir: Path
    #: Count a tool a setup action installs as present: the jobs install it.
    assume_setup: bool = False


@dataclass(frozen=True)
class MatrixMergeRequest:
    """`tier-check matrix merge DIR…`: the matrix from the folders the jobs left."""

    registry: Registry
    dirs: tuple[Path, ...]
    #: `--plan FILE`: the plan `matrix plan` printed.
    plan: Path | None = None
    reports: MatrixReports = field(default_factory=MatrixReports)
