"""The nightly's own layout, end to end: the jobs' folders, the merge job and the publish job,
each run as `.github/workflows/nightly-matrix.yml` runs it, reach one site with every row's
scorecard page (issue 28).

The plan is `tier-check matrix plan … --assume-setup --output github`, as the plan job makes it.
Each assess job's folder is what `tier-check … --out out/$JOB` leaves, written here by the real
report writer from a night of `support.nights` (no harness: a whole assessment is not what is
tested). Then the merge job's step and the publish job's steps are taken from the workflow file
and run with bash in folders of their own, holding only what the workflow downloads into them:
the merge job has `plan/` and `jobs/`; the publish job has the `matrix` artifact in `matrix/`
and the jobs' artifacts in `jobs/`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from support.nights import night_scorecard
from tiercheck.document_files import write_reports

REPO = Path(__file__).resolve().parents[3]
NIGHTLY = REPO / ".github" / "workflows" / "nightly-matrix.yml"
LINES = ("sample-sdk", "go-sdk")


def _script(job: str, *, name: str | None = None, running: str | None = None) -> str:
    steps = yaml.safe_load(NIGHTLY.read_text("utf-8"))["jobs"][job]["steps"]
    (script,) = [
        s["run"]
        for s in steps
        if (name is not None and s.get("name") == name)
        or (running is not None and running in s.get("run", ""))
    ]
    return str(script)


def _runner(root: Path) -> Path:
    """A runner's working folder with the workflow's `.venv/bin/tier-check`."""
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "tier-check").symlink_to(Path(sys.executable).parent / "tier-check")
    return root


def _bash(script: str, cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def _plan(cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    rows = [arg for line in LINES for arg in ("--sdk", line)]
    done = subprocess.run(
        [".venv/bin/tier-check", "matrix", "plan", *rows, "--assume-setup", "--output", "github"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    plan: dict[str, Any] = json.loads(done.stdout)
    (cwd / "plan").mkdir()
    (cwd / "plan" / "plan.json").write_text(done.stdout, encoding="utf-8")
    return plan


def test_the_nightlys_merge_then_publish_puts_every_rows_scorecard_on_the_site(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "TIERCHECK_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    merge = _runner(tmp_path / "merge-job")
    plan = _plan(merge, env)
    jobs = {entry["sdk"]: entry["job"] for entry in plan["matrix"]["include"]}
    assert set(jobs) == set(LINES)
    artifacts = tmp_path / "artifacts"
    for line, job in jobs.items():
        write_reports(night_scorecard(line, 1), artifacts / job)  # what `--out out/$JOB` holds
    shutil.copytree(artifacts, merge / "jobs")
    _bash(_script("merge", running="matrix merge"), merge, env)

    publish = _runner(tmp_path / "publish-job")
    shutil.copytree(merge / "matrix", publish / "matrix")  # the `matrix` artifact
    shutil.copytree(artifacts, publish / "jobs")  # the jobs' artifacts (pattern "*@*")
    (publish / "data" / "history").mkdir(parents=True)  # the first night: an empty data branch
    _bash(_script("publish", name="rebuild the history"), publish, env)
    _bash(_script("publish", name="build the dashboard"), publish, env)

    site = publish / "site"
    index = json.loads((site / "api/v1/index.json").read_text("utf-8"))
    links = {line["line"]: line["links"] for line in index["lines"]}
    assert set(links) == set(LINES)
    doc = json.loads((publish / "matrix" / "matrix.json").read_text("utf-8"))
    for line, job in jobs.items():
        (row,) = [r for r in doc["rows"] if r["sdk"] == line]
        assert row["scorecard"] == f"rows/{job}"  # relative to the matrix's folder
        assert links[line]["scorecard_html"] == f"lines/{line}/scorecard.html"
        assert (site / links[line]["scorecard_html"]).read_bytes() == (
            artifacts / job / "scorecard.html"
        ).read_bytes()
        page = (site / links[line]["page"]).read_text("utf-8")
        assert f'href="../lines/{line}/scorecard.html"' in page
    assert (site / "feed.atom").is_file()

    # With a triage file at the repository's root and the Pages address as a variable, the
    # same step passes both on: the link shows, and the badge panel's URLs are absolute.
    line = sorted(LINES)[0]
    entry = {
        "line": line,
        "scenario": "no-such-scenario",
        "issue": "https://github.com/example/sdk/issues/3",
        "note": "kept for the test",
    }
    (publish / "triage.yaml").write_text(json.dumps({"triage": [entry]}), "utf-8")
    base = {**env, "BASE_URL": "https://example.github.io/nightly/"}
    _bash(_script("publish", name="build the dashboard"), publish, base)
    page = (site / links[line]["page"]).read_text("utf-8")
    assert "example/sdk#3" in page.split('id="triage"')[1]
    assert f"https://example.github.io/nightly/badges/{line}.svg" in page
