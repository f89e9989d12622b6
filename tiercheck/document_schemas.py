"""The JSON Schemas of tiercheck's typed documents, generated from their models: one table.

Each document tiercheck writes for other tools to read (the scorecard, the matrix, the
governance snapshot, the claim, a history data folder's run files, the dashboard's API) has a
frozen-dataclass model; its schema in `tiercheck/schemas/` is this module's output, committed
so that other tools can validate without running Python. A unit test fails when a committed
file differs. Regenerate every one with ``python -m tiercheck.document_schemas``. (The
hand-written schemas of the files people edit — known_sdks.yaml, requirements, baselines,
matrix files — sit beside them.)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from tiercheck import model
from tiercheck.claim.model import ClaimDocument
from tiercheck.dashboard.grid import Grid
from tiercheck.dashboard.model import DashboardIndex, LineHistory, ScenarioIndex
from tiercheck.dashboard.nightdiff import NightDiff, NightList
from tiercheck.dashboard.views import ViewIndex
from tiercheck.governance.snapshot import Snapshot
from tiercheck.history.datafile import DataFolder, RunFile
from tiercheck.matrix.model import Matrix
from tiercheck.scorecard.model import Scorecard

__all__ = [
    "DASHBOARD_DOCUMENTS",
    "DASHBOARD_SCHEMAS",
    "GENERATED",
    "GeneratedSchema",
    "dashboard_schema",
    "schema_text",
    "write_all",
]

#: Where the schemas are published (their `$id`s).
BASE_ID = "https://tiercheck.dev/schemas/"


@dataclass(frozen=True)
class GeneratedSchema:
    """One committed schema and the model it is generated from."""

    model: type
    title: str


#: File name under `tiercheck/schemas/` → its model.
GENERATED: Mapping[str, GeneratedSchema] = {
    "scorecard.schema.json": GeneratedSchema(Scorecard, "tiercheck scorecard"),
    "matrix.schema.json": GeneratedSchema(Matrix, "tiercheck matrix"),
    "governance_snapshot.schema.json": GeneratedSchema(Snapshot, "tiercheck governance snapshot"),
    "claim.schema.json": GeneratedSchema(ClaimDocument, "tiercheck claim"),
    "history_run.schema.json": GeneratedSchema(RunFile, "tiercheck history data folder: one run"),
    "history_folder.schema.json": GeneratedSchema(
        DataFolder, "tiercheck history data folder: its marker file"
    ),
    "dashboard_index.schema.json": GeneratedSchema(
        DashboardIndex, "tiercheck dashboard API v1: api/v1/index.json"
    ),
    "dashboard_line.schema.json": GeneratedSchema(
        LineHistory, "tiercheck dashboard API v1: api/v1/lines/<line>.json"
    ),
    "dashboard_scenarios.schema.json": GeneratedSchema(
        ScenarioIndex, "tiercheck dashboard API v1: api/v1/scenarios.json"
    ),
    "dashboard_grid.schema.json": GeneratedSchema(
        Grid, "tiercheck dashboard API v1: api/v1/grid.json"
    ),
    "dashboard_night.schema.json": GeneratedSchema(
        NightDiff, "tiercheck dashboard API v1: api/v1/nights/<night>.json"
    ),
    "dashboard_nights.schema.json": GeneratedSchema(
        NightList, "tiercheck dashboard API v1: api/v1/nights.json"
    ),
    "dashboard_views.schema.json": GeneratedSchema(
        ViewIndex, "tiercheck dashboard API v1: api/v1/views.json"
    ),
}

#: The schemas a published dashboard carries under `api/v1/schemas/`.
DASHBOARD_SCHEMAS = (
    "dashboard_index.schema.json",
    "dashboard_line.schema.json",
    "dashboard_scenarios.schema.json",
    "matrix.schema.json",
    "dashboard_grid.schema.json",
    "dashboard_night.schema.json",
    "dashboard_nights.schema.json",
    "dashboard_views.schema.json",
)

#: Every document a published dashboard writes under `api/v1/` (a path; `*` is one file name)
#: → its schema under `api/v1/schemas/`. A document the site writes that no pattern here names
#: fails a unit test: none ships without its schema.
DASHBOARD_DOCUMENTS: Mapping[str, str] = {
    "api/v1/index.json": "dashboard_index.schema.json",
    "api/v1/lines/*.json": "dashboard_line.schema.json",
    "api/v1/scenarios.json": "dashboard_scenarios.schema.json",
    "api/v1/matrix.json": "matrix.schema.json",
    "api/v1/grid.json": "dashboard_grid.schema.json",
    "api/v1/nights.json": "dashboard_nights.schema.json",
    "api/v1/nights/*.json": "dashboard_night.schema.json",
    "api/v1/views.json": "dashboard_views.schema.json",
}


def dashboard_schema(path: str) -> str | None:
    """The schema (a file name under `api/v1/schemas/`) of the site's document at `path`
    (`api/v1/lines/alpha-sdk.json`), or None when `path` is none of `DASHBOARD_DOCUMENTS`."""
    for pattern, name in DASHBOARD_DOCUMENTS.items():
        if path.count("/") == pattern.count("/") and fnmatchcase(path, pattern):
            return name
    return None


def schema_text(file_name: str) -> str:
    """The schema `file_name` as the committed file holds it."""
    entry = GENERATED[file_name]
    return model.schema_text(entry.model, schema_id=BASE_ID + file_name, title=entry.title)


def schemas_dir() -> Path:
    """The package's `schemas/` folder (the source tree's, in an editable install)."""
    return Path(__file__).resolve().parent / "schemas"


def write_all(folder: Path | None = None) -> list[Path]:
    """Write every generated schema into `folder` (default: the package's); return the paths."""
    from tiercheck import durable

    target = folder or schemas_dir()
    return [durable.write_text(target / name, schema_text(name)) for name in GENERATED]


if __name__ == "__main__":
    for path in write_all():
        sys.stdout.write(f"{path}\n")
