"""The matrix spread over GitHub Actions: the plan the workflow's jobs come from, and the merge
of the folders its jobs leave. GitHub Actions schedules; tiercheck brings no scheduler.

`plan_document` is what `tier-check matrix plan --output github` prints: `matrix` is the
`strategy.matrix` (one `include` entry per runnable row, with its setup-action versions and its
`tier-check` arguments), `unrunnable` lists the other rows with their reasons, and `rows` is
the whole plan, which `merge --plan` reads back so that the merged matrix has every row the
one-machine run has. `collect_jobs` reads the jobs' folders into the builder's inputs: a
missing or corrupt scorecard becomes an unmeasured row naming its job. Each row with a
scorecard is recorded at `rows/<job>/`, relative to the merged matrix's folder, as the
one-machine matrix lays it out, and `copy_rows` copies the job's folder there: the matrix folder
is whole by itself (`publish --matrix` and `matrix.html` find every row's pages in it), wherever
the jobs' folders were and wherever the merge ran.

`plan_matrix` and `merge_matrix` are the two commands, each from its typed request.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tiercheck.config.registry import Registry
from tiercheck.errors import ConfigError, UsageError
from tiercheck.matrix.build import RowInput, row_id
from tiercheck.pipeline.matrix.outcome import MatrixResult, finish, load_previous, matrix_folder
from tiercheck.pipeline.matrix.request import MatrixMergeRequest, MatrixPlanRequest
from tiercheck.pipeline.matrix.rows import SETUP_KEYS, PlannedRow, select_rows
from tiercheck.pipeline.matrix.run import read_row, row_folder

__all__ = [
    "Collected",
    "MatrixPlan",
    "collect_jobs",
    "copy_rows",
    "load_plan",
    "merge_matrix",
    "plan_document",
    "plan_matrix",
]

PLAN_VERSION = 1


def plan_document(rows: Sequence[PlannedRow]) -> dict[str, Any]:
    """The plan as JSON: the `strategy.matrix`, the rows that cannot run, and every row."""
    import shlex

    include = []
    for row in rows:
        if not row.runnable:
            continue
        entry: dict[str, Any] = {"job": row.job, "row": row.id, "sdk": row.sdk}
        entry["args"] = shlex.join(row.assess_args())
        entry.update({key: row.toolchains.get(key, "") for key in SETUP_KEYS})
        include.append(entry)
    return {
        "plan_version": PLAN_VERSION,
        "matrix": {"include": include},
        "unrunnable": [{"row": r.id, "reason": r.reason} for r in rows if not r.runnable],
        "rows": [_row_json(r) for r in rows],
    }


@dataclass(frozen=True)
class MatrixPlan:
    """What `matrix plan` prints (`plan_document`'s JSON), and its exit code."""

    document: Mapping[str, Any]
    exit_code: int = 0


def plan_matrix(request: MatrixPlanRequest) -> MatrixPlan:
    """The plan of the request's rows, each with this machine's (or the jobs') verdict."""
    rows = select_rows(
        request.registry, request.rows, request.cache_dir, assume_setup=request.assume_setup
    )
    return MatrixPlan(plan_document(rows))


def _row_json(row: PlannedRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "job": row.job,
        "sdk": row.sdk,
        "repo": row.repo,
        "ref": row.ref,
        "claimed_revisions": list(row.claimed_revisions),
        "claimed_tier": row.claimed_tier,
        "runnable": row.runnable,
        "reason": row.reason,
    }


def load_plan(path: Path) -> tuple[PlannedRow, ...]:
    """The rows of a plan `tier-check matrix plan` printed (ConfigError, exit 2, if it is not)."""
    from tiercheck.config.safeload import load_json

    data = load_json(path, what="the matrix plan")
    try:
        _need(isinstance(data, Mapping), "not an object")
        assert isinstance(data, Mapping)  # for the type checker; _need said so
        _need(data.get("plan_version") == PLAN_VERSION, f"plan_version is not {PLAN_VERSION}")
        rows = []
        for item in data["rows"]:
            _need(isinstance(item, Mapping), "a row is not an object")
            rows.append(
                PlannedRow(
                    id=str(item["id"]),
                    sdk=str(item["sdk"]),
                    repo=str(item["repo"]),
                    ref=str(item["ref"]),
                    claimed_revisions=tuple(str(r) for r in item["claimed_revisions"]),
                    claimed_tier=_tier(item["claimed_tier"]),
                    runnable=bool(item["runnable"]),
                    reason=None if item["reason"] is None else str(item["reason"]),
                )
            )
    except (KeyError, TypeError) as exc:
        msg = f"{path}: not a plan written by `tier-check matrix plan` ({exc or 'wrong shape'})"
        raise ConfigError(msg) from None
    return tuple(rows)


def _tier(value: object) -> int | None:
    if value is None:
        return None
    _need(isinstance(value, int) and not isinstance(value, bool), "claimed_tier")
    assert isinstance(value, int)  # for the type checker; _need said so
    return value


def _need(condition: bool, what: str) -> None:
    if not condition:
        raise TypeError(what)


@dataclass(frozen=True)
class Collected:
    """Every row's input, and the job folder each recorded row folder is copied from."""

    inputs: tuple[RowInput, ...]
    #: row folder relative to the matrix's folder (`rows/<job>`) → the job's folder.
    folders: Mapping[str, Path]


def _job_name(name: str) -> str:
    """A job's folder name as one safe path segment (a row's id, or a folder's own name)."""
    safe = re.sub(r"[^A-Za-z0-9@._-]+", "_", name)
    return safe if safe.strip(".") else f"_{safe}"


def _job_folders(dirs: Sequence[Path]) -> dict[str, Path]:
    """Job name → its folder: a DIR holding a scorecard, else each sub-folder of DIR (one
    downloaded artifact each); a folder without a scorecard is still a job that left nothing."""
    found: dict[str, Path] = {}
    for directory in dirs:
        if (directory / "scorecard.json").exists() or not directory.is_dir():
            # The folder's own name, `..` and `.` spelt out (`os.path.abspath` normalises).
            found[Path(os.path.abspath(directory)).name] = directory
            continue
        for child in sorted(p for p in directory.iterdir() if p.is_dir()):
            found[child.name] = child
    return found


def collect_jobs(
    dirs: Sequence[Path], plan: Sequence[PlannedRow] | None, registry: Registry
) -> Collected:
    """Every row's input from the jobs' folders, in plan order (then unplanned jobs by name)."""
    folders = _job_folders(dirs)
    inputs: list[RowInput] = []
    copies: dict[str, Path] = {}

    def recorded(got: RowInput, name: str, folder: Path) -> RowInput:
        if got.scorecard is None:
            return got
        where = row_folder(_job_name(name))
        while where in copies:
            where += "_"
        copies[where] = folder
        return dataclasses.replace(got, folder=where)

    for row in plan or ():
        folder = folders.pop(row.job, None)
        if not row.runnable:
            inputs.append(row.input(None, None, row.reason))
        elif folder is None:
            inputs.append(row.input(None, None, f"the job {row.job} left no folder"))
        else:
            got = read_row(row, folder, str(folder), f"the job {row.job}")
            inputs.append(recorded(got, row.job, folder))
    for job, folder in sorted(folders.items()):
        # Beside a plan, a folder no plan names is a job only if it holds a scorecard (a
        # downloaded plan or log folder is not a row).
        if plan is None or (folder / "scorecard.json").is_file():
            inputs.append(recorded(_unplanned(job, folder, registry), job, folder))
    return Collected(tuple(inputs), copies)


def copy_rows(collected: Collected, out_dir: Path) -> None:
    """Copy each recorded row's job folder into the matrix folder `out_dir` (OSError as any
    write); symbolic links in a job's folder are not followed."""
    from tiercheck.document_files import copy_report_folder

    for where, folder in collected.folders.items():
        copy_report_folder(folder, out_dir / where)


def _unplanned(job: str, folder: Path, registry: Registry) -> RowInput:
    """A job folder no plan names: the row is what its scorecard says it is."""
    guess = PlannedRow(
        id=job,
        sdk=job.partition("@")[0],
        repo="",
        ref=job.partition("@")[2],
        claimed_revisions=(),
        claimed_tier=None,
        runnable=True,
        reason=None,
    )
    got = read_row(guess, folder, str(folder), f"the job {job}")
    card = got.scorecard
    if card is None:
        return got
    entry = registry.find(card.sdk.name)
    ref = card.sdk.ref or ""
    row = PlannedRow(
        id=row_id(card.sdk.name, ref or None),
        sdk=card.sdk.name,
        repo=card.repo,
        ref=ref,
        claimed_revisions=entry.revisions if entry else tuple(card.revisions),
        claimed_tier=entry.claimed_tier if entry else None,
        runnable=True,
        reason=None,
    )
    return row.input(card, str(folder))


def merge_matrix(request: MatrixMergeRequest) -> MatrixResult:
    """The matrix from the jobs' folders, written with every row's folder copied into it.

    Every file the request names is read and every folder checked before anything is written
    (UsageError or ConfigError, exit 2): `--previous`, `--plan`, each DIR and the report folder.
    """
    previous = load_previous(request.reports)
    plan = load_plan(request.plan) if request.plan is not None else None
    for directory in request.dirs:
        if not directory.is_dir():
            raise UsageError(f"{directory}: not a folder (give the folders the jobs left)")
    folder = matrix_folder(request.reports.out)
    collected = collect_jobs(request.dirs, plan, request.registry)
    try:
        copy_rows(collected, folder.path)  # before matrix.json: it never names a missing folder
    except OSError as exc:
        msg = f"cannot copy the jobs' folders into {folder.path}/rows: {exc.strerror or exc}"
        raise UsageError(msg) from None
    return finish(collected.inputs, folder, request.reports, previous=previous)
