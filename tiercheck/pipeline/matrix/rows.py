"""The rows of a matrix: which SDK line at which ref, with which options, and whether this
machine can run it (the `tier-check doctor` check, asked once before anything starts: the
line's tools are ready and its registry entry gives a leg a command)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.config.matrix_file import RowRequest, load_matrix_file
from tiercheck.config.registry import Registry, SdkEntry
from tiercheck.errors import UsageError
from tiercheck.matrix.build import RowInput, row_id
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.request import AssessCommand, TargetRequest
from tiercheck.pipeline.matrix.request import RowSelection
from tiercheck.scorecard.model import Scorecard
from tiercheck.target import STABLE_REF

if TYPE_CHECKING:
    from tiercheck.pipeline.doctor import DoctorRow

__all__ = ["PlannedRow", "RowRequest", "parse_row", "plan_rows", "select_rows"]

#: Tool → the `strategy.matrix` key of the setup action that provides it (setup-go, …).
_SETUP_KEYS = {
    "go": "go",
    "node": "node",
    "npm": "node",
    "pnpm": "node",
    "python3": "python",
    "uv": "python",
    "java": "java",
    "mvn": "java",
    "cargo": "rust",
    "rustc": "rust",
    "dotnet": "dotnet",
    "ruby": "ruby",
    "bundle": "ruby",
}
#: The version a setup action is asked for when the line names no minimum.
_SETUP_DEFAULTS = {
    "go": "stable",
    "node": "22",
    "python": "3.x",
    "java": "17",
    "rust": "stable",
    "dotnet": "10.0.x",
    "ruby": "3.3",
}
SETUP_KEYS = tuple(_SETUP_DEFAULTS)


def parse_row(text: str) -> RowRequest:
    """`NAME[@REF]` → a request; an empty name or ref is a UsageError."""
    name, _, ref = text.partition("@")
    if not name.strip() or (text.count("@") and not ref.strip()):
        msg = f"--sdk {text!r}: expected NAME or NAME@REF"
        raise UsageError(msg)
    return RowRequest(sdk=name.strip(), ref=ref.strip() or None)


@dataclass(frozen=True)
class PlannedRow:
    """One row ready to run, or the reason it cannot run on this machine."""

    id: str
    sdk: str
    repo: str
    ref: str
    claimed_revisions: tuple[str, ...]
    claimed_tier: int | None
    runnable: bool
    reason: str | None
    git_url: str | None = None
    revisions: tuple[str, ...] | None = None
    governance_snapshot: Path | None = None
    #: setup action key (go, node, python, java, rust, dotnet, ruby) → version to ask for.
    toolchains: Mapping[str, str] = field(default_factory=dict)

    @property
    def job(self) -> str:
        """The row's folder and job name: its id with anything a path would mind replaced."""
        return re.sub(r"[^A-Za-z0-9@._-]+", "_", self.id)

    @property
    def assessed(self) -> str:
        """What the row's `tier-check` is given as `--sdk`: `NAME@REF`."""
        return f"{self.sdk}@{self.ref}"

    def assess_args(self) -> tuple[str, ...]:
        """The `tier-check` arguments that assess this row alone (no output folder, no cache),
        each written by its option: the row's part of `command`."""
        return (
            *options.SDK.argv(self.assessed),
            *options.REVISION.argv(self.revisions),
            *options.GIT_URL.argv(self.git_url),
            *options.GOVERNANCE_SNAPSHOT.argv(self.governance_snapshot),
        )

    def command(self, shared: AssessCommand, *, out: Path) -> AssessCommand:
        """The assessment of this row into `out`: what every row is asked (`shared`) with the
        row's own part (`assess_args`); the matrix's `--governance-snapshot` wins over the
        row's."""
        return dataclasses.replace(
            shared,
            target=TargetRequest(sdk=self.assessed),
            settings=dataclasses.replace(
                shared.settings, revisions=self.revisions, git_url=self.git_url
            ),
            governance_snapshot=shared.governance_snapshot or self.governance_snapshot,
            out=out,
        )

    def input(
        self, scorecard: Scorecard | None, folder: str | None, reason: str | None = None
    ) -> RowInput:
        """What the matrix builder takes for this row."""
        return RowInput(
            id=self.id,
            sdk=self.sdk,
            repo=self.repo,
            ref=self.ref,
            claimed_revisions=self.claimed_revisions,
            claimed_tier=self.claimed_tier,
            runnable=self.runnable,
            reason=reason if scorecard is None else None,
            scorecard=scorecard,
            folder=folder,
        )


def plan_rows(
    registry: Registry,
    requests: Sequence[RowRequest],
    cache_dir: Path,
    *,
    assume_setup: bool = False,
) -> tuple[PlannedRow, ...]:
    """Each request as a row, in order, with this machine's verdict on running it.

    `assume_setup`: the rows will run on CI runners that install each row's toolchains with
    the setup actions, so a tool a setup action provides counts as present. Either way a line
    whose entry gives no leg a command is not runnable (it would measure nothing). An unknown SDK
    name or the same row twice is a UsageError (exit 2) before anything runs.
    """
    from tiercheck.pipeline.doctor import diagnose

    entries = [registry.get(request.sdk) for request in requests]  # unknown names raise here
    verdicts = {
        row.sdk: row for row in diagnose(list({e.name: e for e in entries}.values()), cache_dir)
    }
    rows: list[PlannedRow] = []
    seen: set[str] = set()
    for request, entry in zip(requests, entries, strict=True):
        ref = request.ref or entry.default_ref
        rid = row_id(entry.name, ref)
        if rid in seen:
            msg = f"the row {rid} is asked for twice; each row runs once"
            raise UsageError(msg)
        seen.add(rid)
        _check_revisions(rid, entry, request.revisions)
        runnable, reason = _verdict(entry, verdicts[entry.name], assume_setup=assume_setup)
        rows.append(
            PlannedRow(
                id=rid,
                sdk=entry.name,
                repo=entry.repo,
                ref=ref,
                claimed_revisions=entry.revisions,
                claimed_tier=request.claimed_tier or entry.claimed_tier,
                runnable=runnable,
                reason=None if runnable else f"not runnable here: {reason}",
                git_url=request.git_url,
                revisions=request.revisions,
                governance_snapshot=request.governance_snapshot,
                toolchains=_toolchains(entry),
            )
        )
    return tuple(rows)


def _check_revisions(rid: str, entry: SdkEntry, revisions: Sequence[str] | None) -> None:
    """A row's revisions are revisions its line claims (UsageError otherwise)."""
    for revision in revisions or ():
        if revision not in entry.revisions:
            msg = (
                f"{rid}: {entry.name} does not claim {revision} "
                f"(revisions: {', '.join(entry.revisions)})"
            )
            raise UsageError(msg)


def _verdict(entry: SdkEntry, doctor: DoctorRow, *, assume_setup: bool) -> tuple[bool, str]:
    """Whether the line can run and, if not, why: this machine's (`tier-check doctor`'s), or
    with `assume_setup` a CI runner's, where the setup actions install what they provide."""
    if not assume_setup:
        return doctor.runnable, doctor.reason
    missing = [str(r) for r in entry.requires if r.tool not in _SETUP_KEYS]
    reasons = [f"no setup action installs {', '.join(missing)}"] if missing else []
    reasons += [doctor.would_run.reason] if doctor.would_run.reason else []
    return not reasons, "; ".join(reasons)


def _toolchains(entry: SdkEntry) -> dict[str, str]:
    """Setup action key → the version to ask for, for each tool of the line one provides."""
    toolchains: dict[str, str] = {}
    for requirement in entry.requires:
        key = _SETUP_KEYS.get(requirement.tool)
        if key is not None:
            wanted = requirement.minimum or _SETUP_DEFAULTS[key]
            if key == "dotnet" and requirement.minimum:
                wanted = f"{requirement.minimum}.0.x" if "." not in wanted else f"{wanted}.x"
            toolchains.setdefault(key, wanted)
    return toolchains


def select_rows(
    registry: Registry, selection: RowSelection, cache_dir: Path, *, assume_setup: bool = False
) -> tuple[PlannedRow, ...]:
    """The rows `selection` names, planned (`plan_rows`); no row at all is a UsageError."""
    requests = [parse_row(text) for text in selection.sdk]
    if selection.matrix_file is not None:
        requests += load_matrix_file(selection.matrix_file)
    if selection.every_line:
        for name in registry.names():
            requests.append(RowRequest(sdk=name))
            if selection.every_stable:
                requests.append(RowRequest(sdk=name, ref=STABLE_REF))
    if not requests:
        msg = "no rows: give --sdk NAME[@REF] (repeatable), --all or --matrix FILE"
        raise UsageError(msg)
    return plan_rows(registry, requests, cache_dir, assume_setup=assume_setup)
