"""The matrix commands below the command line: `run_matrix`, `plan_matrix` and `merge_matrix`
called with typed requests (no argv), and the request types refusing what no run can honour.

Rows that cannot run here (a tool no machine has: .NET 99) keep `run_matrix` from starting any
child `tier-check`; the merged jobs' folders are written by the real report writer from the
scorecards of `support.nights`."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.nights import night_scorecard
from tiercheck.config.registry import Registry, load_registry
from tiercheck.document_files import write_reports
from tiercheck.errors import UsageError
from tiercheck.matrix.build import RowInput, build_matrix
from tiercheck.pipeline.matrix.distributed import merge_matrix, plan_matrix
from tiercheck.pipeline.matrix.local import run_matrix, shared_command
from tiercheck.pipeline.matrix.outcome import MatrixFolder, finish, matrix_folder
from tiercheck.pipeline.matrix.request import (
    MatrixBudgets,
    MatrixMergeRequest,
    MatrixPlanRequest,
    MatrixReports,
    MatrixRequest,
    RowOptions,
    RowSelection,
)

REGISTRY_TEXT = """\
absent:
  repo: example/absent
  revisions: ["2025-11-25"]
  requires: [dotnet>=99]
  claimed_tier: 2
  client:
    command: ./client
alpha-sdk:
  repo: example/alpha-sdk
  revisions: ["2025-11-25", "2026-07-28"]
  claimed_tier: 1
  client:
    command: ./client
"""

FOLDER = MatrixFolder(Path("unused"), "20260101T000000Z", datetime(2026, 1, 1, tzinfo=UTC))


@pytest.fixture
def registry(tmp_path: Path) -> Registry:
    path = tmp_path / "known_sdks.yaml"
    path.write_text(REGISTRY_TEXT, encoding="utf-8")
    return load_registry(path)


# --- the requests ---------------------------------------------------------------------------


def test_a_regression_gate_needs_a_previous_matrix() -> None:
    with pytest.raises(UsageError) as info:
        MatrixReports(fail_on=frozenset({"regression"}))
    assert info.value.message == (
        "--fail-on regression compares with a previous matrix: give --previous matrix.json"
    )
    assert MatrixReports(fail_on=frozenset({"regression"}), previous="old.json").previous


@pytest.mark.parametrize(
    ("budgets", "message"),
    [
        ({"concurrency": 0}, "--concurrency must be at least 1, not 0"),
        ({"max_builds": 0}, "--max-builds must be at least 1, not 0"),
        ({"max_rows": -3}, "--max-rows must be at least 1, not -3"),
    ],
)
def test_a_budget_below_one_is_refused_naming_its_flag(
    budgets: dict[str, int], message: str
) -> None:
    with pytest.raises(UsageError) as info:
        MatrixBudgets(**budgets)
    assert info.value.message == message


# --- what every row is given ------------------------------------------------------------------


def _shared(registry: Registry, cache: Path, options: RowOptions) -> list[str]:
    request = MatrixRequest(registry, RowSelection(), cache, options=options)
    return shared_command(request).argv()


def test_every_row_is_given_the_registry_governance_harness_and_history(
    registry: Registry, tmp_path: Path
) -> None:
    options = RowOptions(
        skip_governance=True,
        as_of="2026-01-31",
        harness_version="0.2.0",
        reuse=True,
        history=tmp_path / "h.sqlite",
    )
    cache = tmp_path / "cache"
    assert _shared(registry, cache, options) == [
        "--cache-dir",
        str(cache.resolve()),
        "--harness-version",
        "0.2.0",
        "--budget",
        str(cache.resolve() / "budget"),
        "--max-builds",
        "2",
        "--registry",
        str((tmp_path / "known_sdks.yaml").resolve()),
        "--skip-governance",
        "--as-of",
        "2026-01-31",
        "--history",
        str((tmp_path / "h.sqlite").resolve()),
        "--reuse",
    ]
    quiet = RowOptions(history=tmp_path / "h.sqlite", no_history=True)
    assert _shared(registry, cache, quiet)[8:] == ["--no-history"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            RowOptions(skip_governance=True, governance_snapshot=Path("s.json")),
            "--skip-governance cannot be combined with --governance-snapshot",
        ),
        (
            RowOptions(governance_snapshot=Path("/nonexistent/s.json")),
            "--governance-snapshot /nonexistent/s.json: no such file",
        ),
    ],
)
def test_a_bad_row_option_is_refused_once(
    registry: Registry, options: RowOptions, message: str, tmp_path: Path
) -> None:
    with pytest.raises(UsageError) as info:
        _shared(registry, tmp_path, options)
    assert info.value.message == message


# --- run_matrix -------------------------------------------------------------------------------


def test_run_matrix_writes_the_matrix_of_rows_that_cannot_run_here(
    registry: Registry, tmp_path: Path
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    request = MatrixRequest(
        registry=registry,
        rows=RowSelection(sdk=("absent",)),
        cache_dir=tmp_path / "cache",
        reports=MatrixReports(
            out=tmp_path / "out", fail_on=frozenset({"failure"}), step_summary=summary
        ),
        budgets=MatrixBudgets(concurrency=2, max_builds=1, max_rows=3),
    )
    said: list[str] = []
    events: list[str] = []
    result = run_matrix(request, announce=said.append, on_event=events.append)
    (rid,) = re.findall(r"^matrix (\d{8}T\d{6}Z): ", said[0])
    assert said == [
        f"matrix {rid}: 1 row(s), 0 runnable here; rows 3, client slots 2, builds 1 at once"
    ]
    assert len(events) == 1
    assert events[0].startswith("absent@main: unmeasured (not runnable here: ")
    assert result.out_dir == tmp_path / "out"
    assert result.matrix.run_id == rid
    assert [(r.id, r.state, r.tier) for r in result.matrix.rows] == [
        ("absent@main", "unmeasured", None)
    ]
    # An unmeasured row is not below its claimed tier: --fail-on failure passes.
    assert (result.exit_code, result.reasons) == (0, ())
    assert result.files["json"] == tmp_path / "out" / "matrix.json"
    assert (tmp_path / "out" / "matrix.json").is_file()
    markdown = (tmp_path / "out" / "matrix.md").read_text("utf-8")
    assert summary.read_text("utf-8") == "earlier step\n" + markdown


def test_run_matrix_refuses_an_empty_selection_before_any_folder(
    registry: Registry, tmp_path: Path
) -> None:
    request = MatrixRequest(
        registry=registry,
        rows=RowSelection(),
        cache_dir=tmp_path / "cache",
        reports=MatrixReports(out=tmp_path / "out"),
    )
    with pytest.raises(UsageError) as info:
        run_matrix(request, announce=print, on_event=print)
    assert info.value.message == (
        "no rows: give --sdk NAME[@REF] (repeatable), --all or --matrix FILE"
    )
    assert not (tmp_path / "out").exists()


def test_the_default_folder_is_named_after_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = matrix_folder(None)
    assert re.fullmatch(r"\d{8}T\d{6}Z", folder.run_id)
    assert folder.path == Path("reports") / "matrix" / folder.run_id
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(UsageError) as info:
        matrix_folder(tmp_path / "file")
    assert info.value.message == f"--out {tmp_path / 'file'}: is a file, not a directory"


# --- plan_matrix ------------------------------------------------------------------------------


def test_plan_matrix_counts_setup_tools_only_when_asked(registry: Registry, tmp_path: Path) -> None:
    selection = RowSelection(every_line=True)
    here = plan_matrix(MatrixPlanRequest(registry, selection, tmp_path / "cache")).document
    assert [r["id"] for r in here["rows"]] == ["absent@main", "alpha-sdk@main"]
    assert [u["row"] for u in here["unrunnable"]] == ["absent@main"]
    jobs = plan_matrix(
        MatrixPlanRequest(
            registry, RowSelection(sdk=("absent",)), tmp_path / "cache", assume_setup=True
        )
    )
    assert jobs.exit_code == 0
    (entry,) = jobs.document["matrix"]["include"]
    assert (entry["job"], entry["args"], entry["dotnet"]) == (
        "absent@main",
        "--sdk absent@main",
        "99.0.x",
    )


# --- merge_matrix -----------------------------------------------------------------------------


def test_merge_matrix_copies_each_job_and_fails_a_row_below_its_claim(
    registry: Registry, tmp_path: Path
) -> None:
    jobs = tmp_path / "jobs"
    write_reports(night_scorecard("alpha-sdk", 1, tier=2), jobs / "alpha-sdk@main")
    request = MatrixMergeRequest(
        registry=registry,
        dirs=(jobs,),
        reports=MatrixReports(out=tmp_path / "merged", fail_on=frozenset({"failure"})),
    )
    result = merge_matrix(request)
    (row,) = result.matrix.rows
    assert (row.id, row.scorecard) == ("alpha-sdk@main", "rows/alpha-sdk@main")
    assert (tmp_path / "merged" / "rows" / "alpha-sdk@main" / "scorecard.json").is_file()
    assert result.reasons == ("below the claimed tier: alpha-sdk@main (--fail-on failure)",)
    assert result.exit_code == 1


def test_merge_matrix_refuses_a_dir_that_is_no_folder(registry: Registry, tmp_path: Path) -> None:
    request = MatrixMergeRequest(
        registry=registry, dirs=(tmp_path / "none",), reports=MatrixReports(out=tmp_path / "m")
    )
    with pytest.raises(UsageError) as info:
        merge_matrix(request)
    assert info.value.message == (
        f"{tmp_path / 'none'}: not a folder (give the folders the jobs left)"
    )
    assert not (tmp_path / "m").exists()


# --- finish: the exit code --------------------------------------------------------------------


def _alpha(tier: int) -> RowInput:
    return RowInput(
        id="alpha-sdk@main",
        sdk="alpha-sdk",
        repo="example/alpha-sdk",
        ref="main",
        claimed_revisions=("2025-11-25", "2026-07-28"),
        scorecard=night_scorecard("alpha-sdk", tier, tier=tier),
    )


def test_a_row_whose_tier_went_down_fails_the_regression_gate_quoting_previous_as_given(
    tmp_path: Path,
) -> None:
    before = build_matrix(
        [_alpha(1)],
        run_id="20251231T000000Z",
        started_at="2025-12-31T00:00:00Z",
        finished_at="2025-12-31T00:10:00Z",
        interrupted=False,
    )
    reports = MatrixReports(previous="./old//matrix.json", fail_on=frozenset({"regression"}))
    folder = MatrixFolder(tmp_path / "out", FOLDER.run_id, FOLDER.started)
    result = finish([_alpha(2)], folder, reports, previous=before)
    assert result.reasons == ("a row regressed against ./old//matrix.json (--fail-on regression)",)
    assert result.exit_code == 1
    calm = finish([_alpha(2)], folder, MatrixReports(), previous=before)
    assert (calm.exit_code, calm.reasons) == (0, ())


def test_an_interrupted_run_here_exits_130_before_any_gate(tmp_path: Path) -> None:
    folder = MatrixFolder(tmp_path / "out", FOLDER.run_id, FOLDER.started)
    stopped = RowInput(
        id="absent@main",
        sdk="absent",
        repo=None,
        ref="main",
        claimed_revisions=("2025-11-25",),
        claimed_tier=2,
        reason="interrupted before the row started",
    )
    gates = MatrixReports(fail_on=frozenset({"failure"}))
    here = finish(
        [stopped, _alpha(3)], folder, gates, previous=None, interrupted=True, ran_here=True
    )
    assert here.matrix.interrupted
    assert (here.exit_code, here.reasons) == (130, ("interrupted; the partial matrix is written",))
    merged = finish([stopped], folder, gates, previous=None, interrupted=True)
    assert merged.matrix.interrupted
    assert (merged.exit_code, merged.reasons) == (0, ())


def test_plan_matrix_stable_adds_each_line_at_its_latest_stable_release(
    registry: Registry, tmp_path: Path
) -> None:
    selection = RowSelection(every_line=True, every_stable=True)
    plan = plan_matrix(MatrixPlanRequest(registry, selection, tmp_path / "cache")).document
    assert [r["id"] for r in plan["rows"]] == [
        "absent@main",
        "absent@stable",
        "alpha-sdk@main",
        "alpha-sdk@stable",
    ]
    with pytest.raises(UsageError, match=r"^--stable adds each line of --all at @stable"):
        RowSelection(every_stable=True)


def test_a_row_gets_a_client_cap_only_when_one_was_given(
    registry: Registry, tmp_path: Path
) -> None:
    from tiercheck.pipeline.matrix.rows import PlannedRow
    from tiercheck.pipeline.matrix.run import MatrixSettings, row_argv

    def settings(budgets: MatrixBudgets) -> MatrixSettings:
        request = MatrixRequest(registry, RowSelection(), tmp_path, budgets=budgets)
        return MatrixSettings(tmp_path / "out", shared_command(request))

    row = PlannedRow("go-sdk@main", "go-sdk", "o/r", "main", ("2025-11-25",), None, True, None)
    argv = row_argv(row, settings(MatrixBudgets(concurrency=None, max_builds=1)))
    assert "--concurrency" not in argv  # the rows share the measured admission
    assert argv[argv.index("--budget") + 1] == str(tmp_path.resolve() / "budget")
    assert argv[argv.index("--out") + 1] == str(tmp_path / "out" / "rows" / "go-sdk@main")
    capped = row_argv(row, settings(MatrixBudgets(concurrency=4, max_builds=1)))
    assert capped[capped.index("--concurrency") + 1] == "4"
