"""The dashboard's build for a year of nightly history: time and size.

    .venv/bin/python bench/dashboard.py [--lines 10] [--nights 365] [--json PATH]

Makes a synthetic history of `--lines` SDK lines, each claiming both spec revisions (both legs
of each), one run a night for `--nights` nights, every run scored against the real
requirement sets in `requirements/` (every scored and not-scored scenario of each leg, with a
failing check's message on each failure). A seeded generator gives each line a few
scenarios failing from the start, short regressions (a scenario failing for 1-5 nights), an
unmeasured leg now and then, a new commit each week and a new harness version on night 200.
The same seed gives the same history.

Then it runs the real `tier-check` commands, each as its own process, and reports their wall
time and peak RSS:

1. `history export` of the whole history into an empty data folder (one file per run);
2. `history import` of that folder into a fresh database (the nightly's first step);
3. `publish` into an empty site (cold), and again with nothing changed (warm);
4. one more night for every line: `history export` (incremental) and `publish` (incremental);
5. `publish` of the original database into a second site, whose `api/v1/` must be byte for
   byte the first site's (the rebuild from the data folder alone).

The site holds the cross-SDK grid (`grid.html`), a page and a document per night
(`nights/<night>.html`) and the grid's drill-down pages — the grid per status
(`grid-<status>.html`), the grid as of each night (`nights/<night>/grid.html`) and a comparison
per pair of lines (`compare/<a>/<b>.html`), listed in `api/v1/views.json` — as `publish` always
builds them; the sizes count each of the three kinds apart.

Sizes: the data folder and the site (files and bytes, by kind, the largest file and the largest
page). It is a
measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tiercheck.config.requirements import load_requirement_set  # noqa: E402
from tiercheck.history.files import requirements_digest  # noqa: E402
from tiercheck.history.record import LegRow, RunRecord, ScenarioRow  # noqa: E402
from tiercheck.history.store import HistoryStore  # noqa: E402

REVISIONS = ("2025-11-25", "2026-07-28")
START = datetime(2026, 1, 1, 3, 17, tzinfo=UTC)
HARNESS = ("0.2.0-alpha.10", "0.2.0-alpha.12")
HARNESS_CHANGE = 200
SIGNALS = {
    "labels": "pass",
    "triage": "pass",
    "p0_resolution": "pass",
    "stable_release": "pass",
    "policy_signals": "partial",
    "spec_tracking": "pass",
}


def _scenarios() -> dict[tuple[str, str], list[tuple[str, bool]]]:
    """(revision, leg) → every scenario of the requirement set, with whether it is scored."""
    out: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for revision in REVISIONS:
        rset = load_requirement_set(revision)
        for leg in ("server", "client"):
            scored = [(name, True) for name in getattr(rset, leg)]
            extra = [(n.scenario, False) for n in rset.not_scored if n.leg == leg]
            out[(revision, leg)] = scored + extra
    return out


def history(lines: int, nights: int, seed: int) -> list[RunRecord]:
    """The synthetic history (see the module's docstring)."""
    rng = random.Random(seed)
    catalogue = _scenarios()
    digest = requirements_digest(REVISIONS)
    runs: list[RunRecord] = []
    for k in range(lines):
        name = f"sdk-{k:02d}"
        chronic = {
            (rev, leg, s)
            for (rev, leg), names in catalogue.items()
            for s, scored in names
            if scored and rng.random() < 0.02 * (k % 4)
        }
        episodes: dict[tuple[str, str, str], int] = {}
        for n in range(nights):
            moment = START + timedelta(days=n, seconds=rng.randrange(0, 900))
            for key in list(episodes):
                episodes[key] -= 1
                if episodes[key] <= 0:
                    del episodes[key]
            if rng.random() < 0.03:
                (rev, leg), names = rng.choice(sorted(catalogue.items()))
                episodes[(rev, leg, rng.choice(names)[0])] = rng.randint(1, 5)
            legs: list[LegRow] = []
            rows: list[ScenarioRow] = []
            for (rev, leg), names in catalogue.items():
                if rng.random() < 0.01:
                    legs.append(
                        LegRow(rev, leg, "unmeasured", "server never became ready", 0.0, 0, 0)
                    )
                    continue
                passed = total = 0
                for scenario, scored in names:
                    failing = (rev, leg, scenario) in chronic or (rev, leg, scenario) in episodes
                    rows.append(
                        ScenarioRow(
                            rev,
                            leg,
                            scenario,
                            not failing,
                            scored,
                            f"{scenario}-check" if failing else None,
                            "expected a result with content[0].type 'text'" if failing else None,
                        )
                    )
                    if scored:
                        total += 1
                        passed += not failing
                legs.append(LegRow(rev, leg, "measured", None, passed / total, passed, total))
            failing_scored = any(not r.passed and r.scored for r in rows)
            all_measured = all(x.state == "measured" for x in legs)
            tier = 1 if all_measured and not failing_scored else 2 if all_measured else 3
            runs.append(
                RunRecord(
                    run_id=moment.strftime("%Y%m%dT%H%M%SZ"),
                    timestamp=moment,
                    sdk=name,
                    repo=f"example-org/{name}",
                    ref="main",
                    commit=f"{k:02d}{n // 7:06d}".ljust(40, "0"),
                    tiercheck_version="0.1.0",
                    harness_version=HARNESS[n >= HARNESS_CHANGE],
                    node_version="v22.23.3",
                    revisions=REVISIONS,
                    config_digest=f"config-{k:02d}",
                    tier=tier,
                    blockers=("server_conformance",) if tier > 1 else (),
                    governance_digest="0" * 16,
                    signals=SIGNALS,
                    interrupted=False,
                    legs=tuple(legs),
                    scenarios=tuple(rows),
                    requirements_digest=digest,
                )
            )
    return runs


def _tier_check(*args: str) -> dict[str, Any]:
    """Run `tier-check ARGS` as its own process: wall time, its CPU and peak RSS (its own
    rusage, from wait4), its last line."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "tier-check"), *args], stdout=out, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        said, errors = out.read().strip(), err.read().strip()
    if proc.returncode != 0:
        sys.exit(f"tier-check {' '.join(args)} exited {proc.returncode}: {errors}")
    return {
        "command": f"tier-check {' '.join(args)}",
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
        "said": said.splitlines()[-1] if said else "",
    }


def _kind(rel: str) -> str:
    """What a file of the site or the data folder is, for the sizes by kind."""
    for prefix, kind in (
        ("api/", "api"),
        ("badges/", "badges"),
        ("runs/", "runs"),
        ("compare/", "drill: comparisons"),
        ("grid-", "drill: status views"),
    ):
        if rel.startswith(prefix):
            return kind
    if rel.startswith("nights/") and rel.endswith("/grid.html"):
        return "drill: nights' grids"
    return Path(rel).suffix.lstrip(".") or "other"


def _size(folder: Path) -> dict[str, Any]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    kinds: dict[str, list[int]] = {}
    for p in files:
        kinds.setdefault(_kind(p.relative_to(folder).as_posix()), []).append(p.stat().st_size)
    largest = max(files, key=lambda p: p.stat().st_size)
    pages = [p for p in files if p.suffix == ".html"] or files
    page = max(pages, key=lambda p: p.stat().st_size)
    return {
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "by_kind": {k: {"files": len(v), "bytes": sum(v)} for k, v in sorted(kinds.items())},
        "largest": {
            "path": largest.relative_to(folder).as_posix(),
            "bytes": largest.stat().st_size,
        },
        "largest_page": {
            "path": page.relative_to(folder).as_posix(),
            "bytes": page.stat().st_size,
        },
    }


def _api(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted((site / "api").rglob("*"))
        if p.is_file()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--nights", type=int, default=365)
    parser.add_argument("--seed", type=int, default=1730)
    parser.add_argument("--json", metavar="PATH", help="write the figures here as well")
    parser.add_argument("--keep", metavar="DIR", help="keep the data folder and site here")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        started = time.perf_counter()
        runs = history(args.lines, args.nights + 1, args.seed)
        last_night = [r for r in runs if r.timestamp >= START + timedelta(days=args.nights)]
        year = [r for r in runs if r not in last_night]
        made_s = time.perf_counter() - started
        db, fresh = work / "history.sqlite", work / "fresh.sqlite"
        started = time.perf_counter()
        HistoryStore(db).append_many(year)
        fill_s = time.perf_counter() - started
        data, site, again = work / "data", work / "site", work / "site-from-db"
        steps = {
            "export_cold": _tier_check(
                "history", "export", "--history", str(db), "--out", str(data)
            ),
            "import_fresh": _tier_check("history", "import", str(data), "--history", str(fresh)),
            "publish_cold": _tier_check("publish", "--history", str(fresh), "--out", str(site)),
            "publish_warm": _tier_check("publish", "--history", str(fresh), "--out", str(site)),
        }
        site_size = _size(site)
        data_size = _size(data)
        HistoryStore(fresh).append_many(last_night)
        steps["export_one_night"] = _tier_check(
            "history", "export", "--history", str(fresh), "--out", str(data)
        )
        steps["publish_one_night"] = _tier_check(
            "publish", "--history", str(fresh), "--out", str(site)
        )
        HistoryStore(db).append_many(last_night)
        steps["publish_from_the_original_db"] = _tier_check(
            "publish", "--history", str(db), "--out", str(again)
        )
        identical = _api(site) == _api(again)
        result = {
            "lines": args.lines,
            "revisions": len(REVISIONS),
            "nights": args.nights,
            "runs": len(year),
            "scenario_rows": sum(len(r.scenarios) for r in year),
            "seed": args.seed,
            "generate_s": round(made_s, 3),
            "fill_database_s": round(fill_s, 3),
            "database_bytes": db.stat().st_size,
            "steps": steps,
            "data_folder": data_size,
            "site": site_size,
            "api_identical_after_rebuild": identical,
            "machine": {
                "platform": platform.platform(),
                "python": platform.python_version(),
                "cores": os.cpu_count(),
                "load_average": [round(x, 2) for x in os.getloadavg()],
            },
        }
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(result, indent=2) + "\n"
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    for name, step in steps.items():
        sys.stderr.write(
            f"{name:32} {step['wall_s']:7.2f} s wall {step['cpu_s']:7.2f} s CPU "
            f"{step['peak_rss_mb']:7.1f} MB\n"
        )
    sys.stderr.write(
        f"site: {site_size['files']} files, {site_size['bytes'] / 1e6:.1f} MB; data folder: "
        f"{data_size['files']} files, {data_size['bytes'] / 1e6:.1f} MB; api identical after "
        f"rebuild: {identical}\n"
        f"largest page: {site_size['largest_page']['path']} "
        f"{site_size['largest_page']['bytes'] / 1e3:.0f} kB\n"
    )
    for kind, size in site_size["by_kind"].items():
        if kind.startswith("drill: "):
            sys.stderr.write(f"{kind:32} {size['files']:5} files {size['bytes'] / 1e6:7.1f} MB\n")
    return 0 if identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
