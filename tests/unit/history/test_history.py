"""The run history: a synthetic 30-night sequence through the real hook and command, the
SEP-1730 clock worked out by hand, gaps, flaky scenarios, concurrent writers, a garbage
database, schema migration and `history import`."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from support.scorecards import (
    R1,
    check,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    spec_tracking,
    triage,
)
from tiercheck.cli.app import main
from tiercheck.cli.common import warn
from tiercheck.document_files import load_scorecard, write_reports
from tiercheck.history.files import requirements_digest
from tiercheck.history.record import record_of
from tiercheck.history.store import SCHEMA_VERSION, HistoryError, HistoryStore
from tiercheck.pipeline.assess.history import HistoryHook
from tiercheck.revisions import Leg
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import LegVerdict, unmeasured_leg

NIGHT1 = datetime(2026, 10, 1, 3, 0, tzinfo=UTC)
ALPHA_SCENARIOS = [f"server-scenario-{n:02d}" for n in range(10)]  # 1 of 10 fails: 10%
BETA_SCENARIOS = [f"server-scenario-{n:02d}" for n in range(8)]  # 2 of 8 fail: 25%
REQUIRED = "server-scenario-03"


def night(n: int) -> datetime:
    return NIGHT1 + timedelta(days=n - 1)


def _signals() -> dict[str, Any]:
    return {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }


def nightly(
    name: str,
    n: int,
    *,
    failing: Sequence[str],
    names: Sequence[str],
    unmeasured: bool = False,
    commit: str | None = None,
    tier: int = 1,
) -> Scorecard:
    """Night `n`'s scorecard of SDK `name`: the server leg at R1 with `failing` failing, or
    unmeasured; the client leg measured and passing."""
    server: LegVerdict = (
        unmeasured_leg("server", R1, "server never became ready within 30 s")
        if unmeasured
        else measured_leg(
            R1,
            "server",
            [
                scenario(s, passed=False, failing=[check(f"{s}-check", "wrong answer")])
                if s in failing
                else scenario(s)
                for s in names
            ],
        )
    )
    client = measured_leg(R1, "client", [scenario("initialize")])
    legs: dict[str, dict[Leg, LegVerdict]] = {R1: {"server": server, "client": client}}
    doc = scorecard(legs=legs, signals=_signals(), tier=implied(tier, []), name=name)
    moment = night(n)
    return dataclasses.replace(
        doc,
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        # A run records the digest of the requirement sets it was scored against.
        tiercheck=dataclasses.replace(
            doc.tiercheck,
            run_id=moment.strftime("%Y%m%dT%H%M%SZ"),
            requirements_digest=requirements_digest([R1]),
        ),
        sdk=dataclasses.replace(doc.sdk, commit=commit or f"{n:02d}" * 20),
    )


def record_night(
    store: HistoryStore, doc: Scorecard, out: Path, formats: Sequence[str] | None = ("json",)
) -> Scorecard:
    """What the assessment does with a finished scorecard: section, reports, append (only
    the JSON report unless asked: the other formats are slow to render 70 times)."""
    hook = HistoryHook(store, warn)
    doc = hook.with_section(doc)
    write_reports(doc, out, formats)
    hook.append(doc)
    return doc


#: Alpha (Tier 1): its required scenario fails from night 5; its server leg is unmeasured on
#: nights 12, 13 and 32, and there is no run at all on night 20.
ALPHA_UNMEASURED = {12, 13, 32}
ALPHA_NO_RUN = {20}
#: Beta (Tier 2): 2 of 8 scenarios (25%) fail from night 3; unmeasured on nights 29-31.
BETA_UNMEASURED = {29, 30, 31}


def alpha(n: int) -> Scorecard:
    return nightly(
        "alpha-sdk",
        n,
        failing=[REQUIRED] if n >= 5 else [],
        names=ALPHA_SCENARIOS,
        unmeasured=n in ALPHA_UNMEASURED,
    )


def beta(n: int) -> Scorecard:
    return nightly(
        "beta-sdk",
        n,
        failing=BETA_SCENARIOS[:2] if n >= 3 else [],
        names=BETA_SCENARIOS,
        unmeasured=n in BETA_UNMEASURED,
        tier=2,
    )


def history_json(db: Path, sdk: str, as_of: datetime, capsys: pytest.CaptureFixture[str]) -> Any:
    stamp = as_of.strftime("%Y-%m-%dT%H:%M:%SZ")
    code = main(
        ["history", "--sdk", sdk, "--history", str(db), "--output", "json", "--as-of", stamp]
    )
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


def rule(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """A rule over these nights' runs: all of the default branch, so the early warning; the
    SEP-1730 clock itself reads runs of the latest stable release, and there are none."""
    (found,) = [r for r in data["early_warning"] if r["rule"] == name and r["revision"] == R1]
    (clock,) = [r for r in data["relegation"] if r["rule"] == name and r["revision"] == R1]
    assert (found["series"], clock["series"], clock["status"]) == (
        "branch",
        "stable",
        "no-stable-run",
    )
    return found


@pytest.fixture(scope="module")
def filled(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[tuple[str, int], Scorecard]]:
    """34 nights of both SDKs, each night a separate run through the assessment's hook."""
    root = tmp_path_factory.mktemp("nights")
    store = HistoryStore(root / "history.sqlite")
    written: dict[tuple[str, int], Scorecard] = {}
    for n in range(1, 35):
        if n not in ALPHA_NO_RUN:
            written[("alpha-sdk", n)] = record_night(store, alpha(n), root / f"alpha-{n:02d}")
        written[("beta-sdk", n)] = record_night(store, beta(n), root / f"beta-{n:02d}")
    return store.path, written


def test_thirty_nights_streak_starts(filled: Any, capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = filled
    alpha_now = history_json(db, "alpha-sdk", night(30), capsys)
    (streak,) = alpha_now["streaks"]
    assert (streak["revision"], streak["leg"], streak["scenario"]) == (R1, "server", REQUIRED)
    assert streak["since"] == "2026-10-05T03:00:00Z"
    assert streak["since_commit"] == "05" * 20
    # Nights 5..30 less the unmeasured 12, 13 and the missing 20: 23 measured failures.
    assert streak["runs"] == 23
    beta_now = history_json(db, "beta-sdk", night(30), capsys)
    assert {s["scenario"] for s in beta_now["streaks"]} == set(BETA_SCENARIOS[:2])
    assert {s["since"] for s in beta_now["streaks"]} == {"2026-10-03T03:00:00Z"}


def test_thirty_nights_relegation_dates(filled: Any, capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = filled
    # Alpha, Tier 1 → 2: clear on night 4, at risk from night 5 (due 5 Oct + 28 d = 2 Nov).
    assert (
        rule(history_json(db, "alpha-sdk", night(4), capsys), "tier1-to-tier2")["status"] == "clear"
    )
    at_risk = rule(history_json(db, "alpha-sdk", night(5), capsys), "tier1-to-tier2")
    assert (at_risk["status"], at_risk["due_on"]) == ("at-risk", "2026-11-02")
    assert at_risk["since"] == "2026-10-05T03:00:00Z"
    assert at_risk["scenarios"] == [f"server/{REQUIRED}"]
    for n in (30, 31, 32):  # night 32 is unmeasured: still at risk
        assert (
            rule(history_json(db, "alpha-sdk", night(n), capsys), "tier1-to-tier2")["status"]
            == "at-risk"
        ), n
    due = rule(history_json(db, "alpha-sdk", night(33), capsys), "tier1-to-tier2")
    assert (due["status"], due["due_on"]) == ("relegation-due", "2026-11-02")
    # 1 of 10 failing is not more than 20%: the Tier 2 → 3 rule stays clear for alpha.
    assert (
        rule(history_json(db, "alpha-sdk", night(33), capsys), "tier2-to-tier3")["status"]
        == "clear"
    )

    # Beta, Tier 2 → 3: 25% from night 3, due 3 Oct + 28 d = 31 Oct (night 31, unmeasured).
    assert (
        rule(history_json(db, "beta-sdk", night(2), capsys), "tier2-to-tier3")["status"] == "clear"
    )
    beta_risk = rule(history_json(db, "beta-sdk", night(3), capsys), "tier2-to-tier3")
    assert (beta_risk["status"], beta_risk["due_on"]) == ("at-risk", "2026-10-31")
    assert beta_risk["scenarios"] == [f"server/{s}" for s in BETA_SCENARIOS[:2]]
    for n in (28, 30, 31):
        assert (
            rule(history_json(db, "beta-sdk", night(n), capsys), "tier2-to-tier3")["status"]
            == "at-risk"
        ), n
    beta_due = rule(history_json(db, "beta-sdk", night(32), capsys), "tier2-to-tier3")
    assert (beta_due["status"], beta_due["due_on"]) == ("relegation-due", "2026-10-31")


def test_unmeasured_nights_do_not_extend_a_streak(
    filled: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    db, written = filled
    on_11 = history_json(db, "alpha-sdk", night(11), capsys)["streaks"][0]
    on_13 = history_json(db, "alpha-sdk", night(13), capsys)["streaks"][0]
    # Nights 12 and 13 were unmeasured: the streak is still nights 5..11, six days long.
    assert (on_11["runs"], on_11["days"]) == (7, 6.0)
    assert (on_13["runs"], on_13["days"]) == (7, 6.0)
    # ... and they are gaps, not passes: night 14 continues the same streak.
    on_14 = history_json(db, "alpha-sdk", night(14), capsys)["streaks"][0]
    assert (on_14["since"], on_14["runs"], on_14["days"]) == ("2026-10-05T03:00:00Z", 8, 9.0)
    # The scorecard of unmeasured night 31 of beta carries the streak as it stood on night 28.
    section = written[("beta-sdk", 31)].history
    assert section is not None
    assert {(s.runs, s.days) for s in section.streaks} == {(26, 25.0)}
    tier2 = [r for r in section.early_warning if r.rule == "tier2-to-tier3"]
    assert [(r.status, r.due_on) for r in tier2] == [("at-risk", "2026-10-31")]


def test_scorecard_section_on_the_night_it_broke(filled: Any) -> None:
    _, written = filled
    doc = written[("alpha-sdk", 5)]
    assert doc.history is not None
    assert doc.history.previous is not None
    assert doc.history.previous.run_id == "20261004T030000Z"
    assert [(c.scenario, c.before, c.after) for c in doc.history.changes] == [
        (REQUIRED, "pass", "fail")
    ]
    (streak,) = doc.history.streaks
    assert (streak.since, streak.runs, streak.days) == ("2026-10-05T03:00:00Z", 1, 0.0)


def test_the_section_is_in_the_saved_reports(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite")
    record_night(store, alpha(4), tmp_path / "n4")
    doc = record_night(store, alpha(5), tmp_path / "n5", None)
    assert load_scorecard(tmp_path / "n5" / "scorecard.json").history == doc.history
    md = (tmp_path / "n5" / "scorecard.md").read_text()
    txt = (tmp_path / "n5" / "scorecard.txt").read_text()
    html = (tmp_path / "n5" / "scorecard.html").read_text()
    for text in (md, txt, html):
        assert f"{REQUIRED}" in text
        assert "failing since 2026-10-05" in text
        assert "early warning (default branch, not the verdict)" in text
    # The trend chart, inline: two runs, so x is 24 then 456 (a 480-wide chart padded by 24);
    # the server line falls from 100% (y 24) to 90% (y 24 + 112 × 0.1 = 35.2).
    assert 'aria-label="scored pass rate of alpha-sdk over time"' in html
    assert (
        '<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="24.0,24.0 456.0,35.2"/>'
        in html
    )


def test_the_scorecard_trend_ends_with_this_run(filled: Any) -> None:
    _, written = filled
    trend = written[("alpha-sdk", 13)].history.trend  # type: ignore[union-attr]
    assert [p.run_id for p in trend] == [f"202610{n:02d}T030000Z" for n in range(1, 14)]
    # 1 of 10 fails from night 5; the server leg is unmeasured on nights 12 and 13.
    assert [p.pass_rate[R1]["server"] for p in trend] == [1.0] * 4 + [0.9] * 7 + [None, None]
    assert not any(p.tier_changed for p in trend)
    # Night 20 has no run: night 21's trend goes from night 19 straight to itself.
    later = written[("alpha-sdk", 21)].history.trend  # type: ignore[union-attr]
    assert [p.run_id[6:8] for p in later[-3:]] == ["18", "19", "21"]


def test_terminal_and_markdown_name_the_streak(
    filled: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = filled
    stamp = night(33).strftime("%Y-%m-%d")
    assert main(["history", "--sdk", "alpha-sdk", "--history", str(db), "--as-of", stamp]) == 0
    text = capsys.readouterr().out
    assert f"{R1} server {REQUIRED}: failing since 2026-10-05T03:00:00Z" in text
    assert "RELEGATION DUE" not in text  # the default branch's streak is no verdict
    assert "would be due since 2026-10-05T03:00:00Z" in text
    assert "4 weeks on 2026-11-02" in text
    assert (
        "no stable release assessed yet (run tier-check --sdk alpha-sdk@stable to start the clock)"
        in text
    )
    argv = ["history", "--sdk", "alpha-sdk", "--history", str(db), "--output", "markdown"]
    assert main([*argv, "--as-of", stamp, "--since", "1w"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# History of alpha-sdk")
    # A date as --as-of is the end of that day (2 Nov 23:59:59); a week before it is
    # 26 Oct 23:59:59, so the window holds the runs of nights 27..33.
    assert md.count("\n| 2026-") == 7


def test_json_series_and_svg(filled: Any, capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = filled
    data = history_json(db, "alpha-sdk", night(13), capsys)
    rates = [p["pass_rate"][R1]["server"] for p in data["series"]]
    assert rates == [1.0] * 4 + [0.9] * 7 + [None, None]
    svg = data["trend_svg"]
    assert svg.startswith("<svg")
    assert svg.endswith("</svg>")
    assert "<script" not in svg
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert svg.count("<polyline") == 2  # server (one unbroken segment so far) and client


def test_flaky_scenario_is_reported_with_its_flips(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite")
    same = "ab" * 20
    docs = []
    for n, fails in enumerate([False, True, False, True], start=1):
        doc = nightly(
            "gamma-sdk",
            n,
            failing=[REQUIRED] if fails else [],
            names=ALPHA_SCENARIOS,
            commit=same,
        )
        docs.append(record_night(store, doc, tmp_path / f"g{n}", None))
    last = docs[-1].history
    assert last is not None
    assert [(f.scenario, f.flips, f.commit) for f in last.flaky] == [(REQUIRED, 3, same)]
    (streak,) = last.streaks
    assert streak.flaky  # a flaky failure is marked, not hidden
    assert "[flaky]" in (tmp_path / "g4" / "scorecard.md").read_text()


def test_garbage_database_warns_once_and_the_scorecard_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "history.sqlite"
    db.write_bytes(b"this is not a database\x00\xff" * 200)
    out = tmp_path / "out"
    doc = record_night(HistoryStore(db), alpha(1), out, None)
    assert doc.history is None
    assert (out / "scorecard.json").is_file()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("tier-check: warning: history ")
    assert "the run goes on without history" in err[0]
    assert db.read_bytes().startswith(b"this is not a database")  # never overwritten


def test_locked_database_is_a_warning_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "history.sqlite"
    HistoryStore(db).schema_version()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        hook = HistoryHook(HistoryStore(db, busy_timeout_s=0.05), warn)
        hook.append(alpha(1))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "locked" in err


def test_newer_schema_is_refused_never_dropped(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    store = HistoryStore(db)
    store.append(record_of(alpha(1)))
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(HistoryError, match="newer than this tiercheck"):
        store.runs()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == (1,)


def test_version_1_database_is_migrated_forward(tmp_path: Path) -> None:
    from tiercheck.history import store as store_module

    db = tmp_path / "history.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(store_module._MIGRATIONS[0])
        conn.execute("PRAGMA user_version = 1")
        conn.execute(
            "INSERT INTO runs (key, run_id, timestamp, sdk, repo, tiercheck_version, revisions,"
            " config_digest, tier, blockers, governance_digest, signals, interrupted)"
            " VALUES ('k', 'old', '2026-09-01T03:00:00+00:00', 'alpha-sdk', 'o/alpha-sdk',"
            " '0.0.9', '[]', 'd', 1, '[]', 'g', '{}', 0)"
        )
    store = HistoryStore(db)
    assert store.schema_version() == SCHEMA_VERSION
    assert [r.run_id for r in store.runs("alpha-sdk")] == ["old"]
    store.append(record_of(alpha(1)))
    assert [r.run_id for r in store.runs("alpha-sdk")] == ["old", "20261001T030000Z"]


_WRITER = textwrap.dedent(
    """
    import dataclasses, sys
    from datetime import UTC, datetime, timedelta
    from tiercheck.history.record import record_of
    from tiercheck.history.store import HistoryStore
    from tiercheck.model import from_json
    from tiercheck.scorecard.model import Scorecard
    import json
    doc = from_json(Scorecard, json.loads(open(sys.argv[2]).read()))
    record = record_of(doc)
    store = HistoryStore(sys.argv[1])
    start = datetime(2026, 10, 1, tzinfo=UTC)
    for n in range(100):
        moment = start + timedelta(minutes=n)
        store.append(dataclasses.replace(record, run_id=f"{sys.argv[3]}-{n}", timestamp=moment))
    """
)


def test_two_concurrent_writers_each_add_100_runs(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    doc = tmp_path / "doc.json"
    write_reports(alpha(5), tmp_path / "doc", ["json"])
    doc.write_text((tmp_path / "doc" / "scorecard.json").read_text())
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(db), str(doc), name])
        for name in ("row-a", "row-b")
    ]
    try:
        codes = [w.wait(timeout=120) for w in writers]
    finally:
        for w in writers:
            if w.poll() is None:
                w.kill()
                w.wait()
    assert codes == [0, 0]
    runs = HistoryStore(db).runs()
    assert len(runs) == 200
    assert len({r.run_id for r in runs}) == 200
    assert all(len(r.scenarios) == 11 for r in runs)  # 10 server scenarios + 1 client


_FRESH_OPENER = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from tiercheck.history.store import HistoryError, HistoryStore
    root, me, writers = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    failures = []
    for db in sorted(root.glob("db-*")):
        # A barrier per database: every writer is ready before any opens it, so the first
        # opens (creating the file, switching it to WAL, migrating) really overlap.
        (db / f"ready-{me}").touch()
        while len(list(db.glob("ready-*"))) < writers:
            time.sleep(0.0005)
        try:
            HistoryStore(db / "history.sqlite").schema_version()
        except HistoryError as exc:
            failures.append(str(exc))
    print(json.dumps(failures))
    """
)


def test_many_writers_opening_fresh_databases_at_once_all_succeed(tmp_path: Path) -> None:
    # The race of issue 23: two processes creating the same database, one switching it to WAL
    # while the other migrates, and one got "database is locked" at once (no busy wait). One
    # collision in a whole suite run is too rare to show, so: many fresh databases, four
    # writers each, all opening at one instant; bounded by the number of databases.
    databases, writers = 40, 4
    for n in range(databases):
        (tmp_path / f"db-{n:03}").mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _FRESH_OPENER, str(tmp_path), f"w{w}", str(writers)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(writers)
    ]
    try:
        outputs = [p.communicate(timeout=240)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [p.returncode for p in procs] == [0] * writers
    failures = [f for out in outputs for f in json.loads(out)]
    assert failures == []
    assert all(
        HistoryStore(d / "history.sqlite").schema_version() == SCHEMA_VERSION
        for d in tmp_path.glob("db-*")
    )


def test_import_of_saved_folders_gives_the_same_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = HistoryStore(tmp_path / "live.sqlite")
    matrix = tmp_path / "matrix"
    for n in range(1, 8):
        record_night(live, alpha(n), matrix / "alpha-sdk" / f"night-{n}")
        record_night(live, beta(n), matrix / "beta-sdk" / f"night-{n}")
    imported = tmp_path / "imported.sqlite"
    assert main(["history", "import", str(matrix), "--history", str(imported)]) == 0
    assert "imported 14 run(s)" in capsys.readouterr().out

    # The live hook records the digest of the requirement sets a run was scored against; a
    # saved scorecard may not say it, so the comparison leaves it out.
    assert [dataclasses.replace(r, requirements_digest=None) for r in live.runs()] == [
        dataclasses.replace(r, requirements_digest=None) for r in HistoryStore(imported).runs()
    ]
    # Importing again adds nothing.
    assert main(["history", "import", str(matrix), "--history", str(imported)]) == 0
    assert "imported 0 run(s)" in capsys.readouterr().out
    assert len(HistoryStore(imported).runs()) == 14


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["history", "--sdk", "x", "--since", "soon"], "--since 'soon'"),
        (["history", "--sdk", "x", "--as-of", "yesterday"], "--as-of 'yesterday'"),
        (["history", "frobnicate"], "unknown action 'frobnicate'"),
        (["history", "import"], "at least one folder"),
        (["history"], "--sdk NAME is required"),
    ],
)
def test_history_bad_input_is_one_line(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--history", str(tmp_path / "h.sqlite")]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1


def test_history_command_on_a_garbage_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    db.write_bytes(b"\x00garbage" * 100)
    assert main(["history", "--sdk", "alpha-sdk", "--history", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not a database" in err


# --- --reuse: what a stored run must match ------------------------------------------------


def _stored(tmp_path: Path, doc: Scorecard, *, digest: str = "req-1") -> HistoryStore:
    store = HistoryStore(tmp_path / "reuse.sqlite")
    files = {
        (rev, leg): {"s-2026-10-01T03-00-00Z/checks.json": "[]"}
        for rev, entry in doc.revisions.items()
        for leg in ("server", "client")
        if (entry.server if leg == "server" else entry.client).state == "measured"
    }
    store.append(record_of(doc), requirements_digest=digest, leg_results=files)
    return store


def _key(doc: Scorecard, **change: Any) -> Any:
    from tiercheck.history.store import ReuseKey

    record = record_of(doc)
    assert record.commit is not None
    assert record.harness_version is not None
    key = ReuseKey(
        sdk=record.sdk,
        commit=record.commit,
        config_digest=record.config_digest,
        harness_version=record.harness_version,
        requirements_digest="req-1",
        revisions=record.revisions,
    )
    return dataclasses.replace(key, **change)


def test_reuse_finds_the_run_of_the_same_commit_config_harness_and_requirements(
    tmp_path: Path,
) -> None:
    doc = alpha(5)
    store = _stored(tmp_path, doc)
    found = store.reusable(_key(doc))
    assert found is not None
    record, files = found
    assert record.run_id == doc.tiercheck.run_id
    assert set(files) == {(R1, "server"), (R1, "client")}


@pytest.mark.parametrize(
    "change",
    [
        {"harness_version": "0.2.0-alpha.13"},
        {"config_digest": "another-config"},
        {"commit": "ff" * 20},
        {"requirements_digest": "req-2"},
        {"revisions": (R1, "2026-07-28")},
        {"sdk": "other-sdk"},
    ],
)
def test_reuse_refuses_any_difference(tmp_path: Path, change: dict[str, Any]) -> None:
    doc = alpha(5)
    assert _stored(tmp_path, doc).reusable(_key(doc, **change)) is None


def test_reuse_never_takes_an_unmeasured_or_interrupted_run(tmp_path: Path) -> None:
    unmeasured = alpha(12)  # its server leg is unmeasured
    assert _stored(tmp_path / "u", unmeasured).reusable(_key(unmeasured)) is None
    interrupted = dataclasses.replace(alpha(6), interrupted=True)
    assert _stored(tmp_path / "i", interrupted).reusable(_key(interrupted)) is None


def test_the_config_digest_follows_the_resolved_values_not_their_sources() -> None:
    from tiercheck.history.record import config_digest

    base = {R1: {"server.command": "python server.py", "client.timeout": 30}}
    assert config_digest(base) == config_digest(
        {R1: {"client.timeout": 30, "server.command": "python server.py"}}
    )
    assert config_digest(base) != config_digest(
        {R1: {"server.command": "python server.py", "client.timeout": 31}}
    )


def test_runs_written_to_folders_of_one_name_are_told_apart(tmp_path: Path) -> None:
    # `--out report` every night: every run id is "report"; the time tells the runs apart.
    store = HistoryStore(tmp_path / "h.sqlite")
    docs = []
    for n in (4, 5):
        doc = alpha(n)
        doc = dataclasses.replace(
            doc, tiercheck=dataclasses.replace(doc.tiercheck, run_id="report")
        )
        docs.append(record_night(store, doc, tmp_path / f"n{n}"))
    section = docs[1].history
    assert section is not None
    assert section.previous is not None
    assert section.previous.timestamp == "2026-10-04T03:00:00Z"
    assert [c.scenario for c in section.changes] == [REQUIRED]
    assert len(store.runs()) == 2
