"""The matrix's formats (golden files worked out by hand), its file of rows, its plan for
GitHub Actions, and the machine-wide build slots the rows share."""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path

import pytest

from tiercheck.config.matrix_file import load_matrix_file
from tiercheck.config.registry import load_registry
from tiercheck.conformance.slots import SLOT_SCRIPT, prepare_slots, share_slots, sharers
from tiercheck.errors import ConfigError, UsageError
from tiercheck.matrix.model import (
    ChangesBlock,
    LegCell,
    Matrix,
    MatrixRow,
    MatrixTool,
    ScenarioCell,
    ScenarioChange,
    TierCell,
    TierChange,
)
from tiercheck.matrix.text import (
    render_matrix_junit,
    render_matrix_markdown,
    render_matrix_terminal,
)
from tiercheck.pipeline.matrix.distributed import collect_jobs, load_plan, plan_document
from tiercheck.pipeline.matrix.rows import PlannedRow, parse_row, plan_rows
from tiercheck.scorecard.model import BlockerEntry
from tiercheck.sdk import budget

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
R1, R2 = "2025-11-25", "2026-07-28"


def _cell(rev: str, leg: str, state: str, reason: str | None = None, **kw: object) -> LegCell:
    fields: dict[str, object] = {"passed": 0, "total": 0, "scenarios": ()}
    fields.update(kw)
    return LegCell(revision=rev, leg=leg, state=state, reason=reason, **fields)  # type: ignore[arg-type]


def _golden_matrix() -> Matrix:
    alpha = MatrixRow(
        id="alpha@v1",
        sdk="alpha",
        repo="example/alpha",
        ref="v1",
        commit="0123456789abcdef0123456789abcdef01234567",
        runnable=True,
        state="measured",
        reason=None,
        tier=TierCell(official=2, sep1730=2, claimed=1, below_claim=True),
        blockers=(
            BlockerEntry(
                check="triage",
                tier=1,
                kind="failed",
                qualifier=None,
                reason=None,
                text="triage compliance < 90%",
            ),
        ),
        legs=(
            _cell(
                R1,
                "server",
                "measured",
                passed=2,
                total=3,
                scenarios=(
                    ScenarioCell(scenario="server-initialize", verdict="passed"),
                    ScenarioCell(
                        scenario="tools-list",
                        verdict="failed",
                        check="tools-list-shape",
                        message="missing | tools",
                    ),
                    ScenarioCell(scenario="json-schema-2020-12", verdict="not-scored"),
                ),
            ),
            _cell(
                R1,
                "client",
                "measured",
                passed=1,
                total=1,
                scenarios=(ScenarioCell(scenario="initialize", verdict="passed"),),
            ),
            _cell(R2, "server", "unmeasured", "server never became ready"),
            _cell(R2, "client", "skipped", "no client configured"),
        ),
        probes=(),
        scorecard="rows/alpha@v1",
        exit_code=1,
        duration_s=12.0,
    )
    missing = "not runnable here: dotnet missing"
    beta = MatrixRow(
        id="beta@main",
        sdk="beta",
        repo="example/beta",
        ref="main",
        commit=None,
        runnable=False,
        state="unmeasured",
        reason=missing,
        tier=None,
        blockers=(),
        legs=(
            _cell(R1, "server", "unmeasured", missing),
            _cell(R1, "client", "unmeasured", missing),
            _cell(R2, "server", "not-claimed", "the line does not claim 2026-07-28"),
            _cell(R2, "client", "not-claimed", "the line does not claim 2026-07-28"),
        ),
        probes=(),
        scorecard=None,
        exit_code=None,
        duration_s=None,
    )
    return Matrix(
        tiercheck=MatrixTool(version="0.1.0", schema_version=1),
        run_id="20260820T091500Z",
        started_at="2026-08-20T09:00:00Z",
        finished_at="2026-08-20T09:15:00Z",
        interrupted=False,
        revisions=(R1, R2),
        rows=(alpha, beta),
        changes=ChangesBlock(
            previous_run_id="20260101T000000Z",
            new_failures=(
                ScenarioChange(
                    row="alpha@v1",
                    revision=R1,
                    leg="server",
                    scenario="tools-list",
                    before="passed",
                    after="failed",
                ),
            ),
            fixes=(),
            tier_changes=(TierChange(row="alpha@v1", before=1, after=2),),
        ),
    )


def test_markdown_is_one_line_per_sdk_then_the_changes() -> None:
    expected = (GOLDEN / "matrix.md").read_text("utf-8")
    assert render_matrix_markdown(_golden_matrix()) == expected


def test_junit_has_a_suite_per_sdk_revision_and_leg() -> None:
    expected = (GOLDEN / "matrix.xml").read_text("utf-8")
    assert render_matrix_junit(_golden_matrix()) == expected


# --- the matrix file --------------------------------------------------------------------------


def test_a_matrix_file_reads_rows_and_options(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        "rows:\n"
        "  - sdk: go-sdk\n"
        "    ref: v1.2.0\n"
        "    revisions: ['2025-11-25']\n"
        "    claimed_tier: 1\n"
        "    governance_snapshot: snaps/go.json\n"
        "  - sdk: python-sdk\n",
        encoding="utf-8",
    )
    rows = load_matrix_file(path)
    assert [(r.sdk, r.ref, r.revisions, r.claimed_tier) for r in rows] == [
        ("go-sdk", "v1.2.0", ("2025-11-25",), 1),
        ("python-sdk", None, None, None),
    ]
    assert rows[0].governance_snapshot == tmp_path / "snaps" / "go.json"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("rows: []\n", "rows"),
        ("rows:\n  - ref: main\n", "sdk"),
        ("rows:\n  - sdk: go-sdk\n    reff: main\n", "reff"),
        ("rows:\n  - sdk: go-sdk\n    claimed_tier: 4\n", "claimed_tier"),
        ("rows:\n  - sdk: go-sdk\n    revisions: ['2024-01-01']\n", "revisions"),
        ("- sdk: go-sdk\n", "m.yaml"),
        ("", "empty"),
    ],
)
def test_a_wrong_matrix_file_is_one_line_naming_the_place(
    tmp_path: Path, text: str, fragment: str
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_matrix_file(path)
    assert info.value.exit_code == 2
    assert "\n" not in info.value.message
    assert fragment in info.value.message
    assert str(path) in info.value.message


# --- rows and the plan ------------------------------------------------------------------------


REGISTRY_TEXT = """\
present:
  repo: example/present
  default_ref: main
  revisions: ["2025-11-25"]
  requires: [python3>=3.0]
  claimed_tier: 2
  client:
    command: ./client
absent:
  repo: example/absent
  revisions: ["2025-11-25", "2026-07-28"]
  requires: [dotnet>=99]
  client:
    command: ./client
"""


@pytest.fixture
def registry_path(tmp_path: Path) -> Path:
    path = tmp_path / "known_sdks.yaml"
    path.write_text(REGISTRY_TEXT, encoding="utf-8")
    return path


def test_rows_are_planned_with_this_machines_verdict(registry_path: Path, tmp_path: Path) -> None:
    registry = load_registry(registry_path)
    rows = plan_rows(registry, [parse_row("present@v2"), parse_row("absent")], tmp_path / "cache")
    present, absent = rows
    assert (present.id, present.ref, present.runnable, present.claimed_tier) == (
        "present@v2",
        "v2",
        True,
        2,
    )
    assert present.toolchains == {"python": "3.0"}
    assert (absent.id, absent.runnable) == ("absent@main", False)
    assert absent.reason is not None
    assert "dotnet" in absent.reason
    assert absent.toolchains == {"dotnet": "99.0.x"}


def test_the_plan_lists_runnable_jobs_and_the_others_apart(
    registry_path: Path, tmp_path: Path
) -> None:
    registry = load_registry(registry_path)
    rows = plan_rows(registry, [parse_row("present@v2"), parse_row("absent")], tmp_path)
    plan = plan_document(rows)
    assert plan["matrix"]["include"] == [
        {
            "job": "present@v2",
            "row": "present@v2",
            "sdk": "present",
            "args": "--sdk present@v2",
            "go": "",
            "node": "",
            "python": "3.0",
            "java": "",
            "rust": "",
            "dotnet": "",
            "ruby": "",
        }
    ]
    assert [u["row"] for u in plan["unrunnable"]] == ["absent@main"]
    # CI runners get their toolchains from setup actions: the .NET row can run there
    assumed = plan_rows(registry, [parse_row("absent")], tmp_path, assume_setup=True)
    assert assumed[0].runnable
    # read back as merge reads it
    saved = tmp_path / "plan.json"
    saved.write_text(json.dumps(plan), encoding="utf-8")
    loaded = load_plan(saved)
    assert [(r.id, r.runnable, r.claimed_tier) for r in loaded] == [
        ("present@v2", True, 2),
        ("absent@main", False, None),
    ]


def test_a_job_that_left_nothing_is_an_unmeasured_row_naming_it(
    registry_path: Path, tmp_path: Path
) -> None:
    registry = load_registry(registry_path)
    row = PlannedRow(
        id="present@v2",
        sdk="present",
        repo="example/present",
        ref="v2",
        claimed_revisions=(R1,),
        claimed_tier=2,
        runnable=True,
        reason=None,
    )
    corrupt = tmp_path / "jobs" / "present@v2"
    corrupt.mkdir(parents=True)
    (corrupt / "scorecard.json").write_text("{not json", encoding="utf-8")
    inputs = collect_jobs([tmp_path / "jobs"], [row], registry).inputs
    assert inputs[0].scorecard is None
    assert inputs[0].reason is not None
    assert inputs[0].reason.startswith("the job present@v2: ")
    gone = collect_jobs([tmp_path / "empty"], [row], registry).inputs
    assert gone[0].reason == "the job present@v2 left no folder"


@pytest.mark.parametrize("text", ["", "@v1", "name@"])
def test_a_malformed_row_is_refused(text: str) -> None:
    with pytest.raises(UsageError):
        parse_row(text)


def test_the_same_row_twice_is_refused(registry_path: Path, tmp_path: Path) -> None:
    registry = load_registry(registry_path)
    with pytest.raises(UsageError, match="twice"):
        plan_rows(registry, [parse_row("present"), parse_row("present@main")], tmp_path)


# --- budgets ----------------------------------------------------------------------------------


def test_build_slots_hold_n_at_once_and_the_next_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budget, "POLL_S", 0.01)
    waited = threading.Event()
    entered = threading.Event()
    with budget.slot(tmp_path, "build", 2), budget.slot(tmp_path, "build", 2):

        def third() -> None:
            with budget.slot(tmp_path, "build", 2, on_wait=waited.set):
                entered.set()

        worker = threading.Thread(target=third)
        worker.start()
        assert waited.wait(30)
        assert not entered.is_set()  # both slots are held: the third waits
    worker.join(30)
    assert entered.is_set()  # a slot came free


def test_a_shared_slot_directory_keeps_one_script_and_counts_its_sharers(tmp_path: Path) -> None:
    script = share_slots(tmp_path / "clients", 3)
    assert script.read_text("utf-8") == SLOT_SCRIPT
    before = script.stat().st_ino
    assert prepare_slots(tmp_path / "clients") == script
    assert script.stat().st_ino == before  # left alone: a client may be reading it
    assert sharers(tmp_path / "clients") == 3
    assert sharers(tmp_path / "elsewhere") == 1


def test_matrix_help_documents_fail_on_and_its_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tiercheck.cli.app import main

    with pytest.raises(SystemExit) as info:
        main(["matrix", "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--fail-on {regression,failure}" in text
    assert "--fail-on regression: a scenario newly fails, or a row's tier went down" in text
    assert "130 interrupted" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["matrix"],
        ["matrix", "--sdk", "no-such-sdk"],
        ["matrix", "--sdk", "sample-sdk", "--fail-on", "regression"],
        ["matrix", "--sdk", "sample-sdk", "--max-builds", "0"],
        ["matrix", "merge", "/nonexistent/jobs"],
        ["matrix", "plan", "--matrix", "/nonexistent/m.yaml"],
    ],
)
def test_bad_matrix_input_is_one_line_and_exit_2(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tiercheck.cli.app import main

    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tier-check: error: ")
    assert len(err.strip().splitlines()) == 1, err


def test_a_reason_of_many_lines_shows_its_first_in_the_summary() -> None:
    matrix = _golden_matrix()
    beta = dataclasses.replace(
        matrix.rows[1], reason="build failed: exit 1\n*** Error compiling 'client.py'"
    )
    text = render_matrix_markdown(dataclasses.replace(matrix, rows=(matrix.rows[0], beta)))
    line = next(ln for ln in text.splitlines() if ln.startswith("| beta@main"))
    assert line.endswith("| build failed: exit 1 |")


def test_a_row_refused_by_its_tier_check_carries_the_refusal_in_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tiercheck.cli.app import main

    sample = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"
    snapshot = json.loads((sample / "governance-snapshot.json").read_text("utf-8"))
    snapshot["repo"] = "someone/else"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(snapshot), encoding="utf-8")
    matrix_file = tmp_path / "matrix.yaml"
    matrix_file.write_text(
        "rows:\n"
        "  - sdk: sample-sdk\n"
        "    ref: v1.0.0\n"
        f"    git_url: {(tmp_path / 'absent.git').as_uri()}\n"
        "    governance_snapshot: other.json\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "out"
    argv = ["matrix", "--matrix", str(matrix_file), "--no-history", "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    (row,) = json.loads((out / "matrix.json").read_text("utf-8"))["rows"]
    assert row["state"] == "unmeasured"
    assert row["reason"] == (
        "tier-check exited with code 2: --governance-snapshot: "
        f"{other} is a snapshot of someone/else, not tiercheck/sample-sdk; "
        "record one for tiercheck/sample-sdk or pass --repo someone/else "
        "(log: logs/sample-sdk@v1.0.0.log): no scorecard.json in rows/sample-sdk@v1.0.0"
    )


def test_a_row_under_another_harness_is_named_in_both_renderings() -> None:
    matrix = _golden_matrix()
    assert matrix.changes is not None
    only = ChangesBlock(
        previous_run_id="20260101T000000Z",
        new_failures=(),
        fixes=(),
        tier_changes=(),
        incomparable=("beta@main",),
    )
    shown = render_matrix_markdown(dataclasses.replace(matrix, changes=only))
    assert "- beta@main: another harness version, no scenario compared" in shown.splitlines()
    assert "No change." not in shown
    plain = render_matrix_terminal(dataclasses.replace(matrix, changes=only))
    assert plain.splitlines()[-1] == (
        "since 20260101T000000Z: 0 new failure(s), 0 fix(es), 0 tier change(s), "
        "1 under another harness"
    )
    # Without one, the summary line is as it was.
    assert render_matrix_terminal(matrix).splitlines()[-1].endswith("1 tier change(s)")


def test_a_row_that_measured_nothing_is_unmeasured_never_passing() -> None:
    """A row whose assessment exited 3 (every leg skipped: no command configured) is an
    unmeasured row with the skip's reason, not a passing one, and is not "below" its claim."""
    from support.scorecards import implied, skipped, tier1_scorecard
    from tiercheck.matrix.build import RowInput, build_matrix
    from tiercheck.matrix.text import render_matrix_markdown as markdown
    from tiercheck.scorecard.build import implied_tier_block
    from tiercheck.tier import Blocker

    reasons = {"server": "no server command/url configured", "client": "no client command"}
    card = tier1_scorecard(
        replace_legs={(r, leg): skipped(r, leg, reasons[leg]) for r in (R1, R2) for leg in reasons}
    )
    tier3 = implied_tier_block(implied(3, [Blocker("server_conformance", 1, "skipped")]))
    card = dataclasses.replace(card, exit_code=3, implied_tier=tier3)
    row = RowInput(
        id="mine@main",
        sdk="mine",
        repo="me/mine",
        ref="main",
        claimed_revisions=(R1, R2),
        claimed_tier=1,
        scorecard=card,
    )
    matrix = build_matrix([row], run_id="r", started_at="s", finished_at="f", interrupted=False)
    (built,) = matrix.rows
    assert built.state == "unmeasured"
    assert built.exit_code == 3
    assert built.reason == "no server command/url configured"
    assert {cell.state for cell in built.legs} == {"skipped"}
    # It has no tier at all: the Tier 3 its scorecard wrote rests on nothing.
    assert built.tier is None
    assert "mine@main" in markdown(matrix)
