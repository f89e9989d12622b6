"""The GitHub Action's shell steps (`action/tiercheck-action.sh`), with a stand-in tier-check.

The script is run as a composite action's step runs it (bash, `TIERCHECK_INPUT_*`,
`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`), with a small `tier-check` of ours first on PATH that
records its arguments and writes a scorecard, so every input mapping and every fail-on policy is
checked in milliseconds. The real run against the sample SDK is in tests/integration.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support import tools
from support.scorecards import mixed_scorecard, tier1_scorecard
from tiercheck.model import to_json
from tiercheck.revisions import LEGS

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "action" / "tiercheck-action.sh"

FAKE = """#!{python}
import json, os, sys
from pathlib import Path
from typing import Any
args = sys.argv[1:]
Path(os.environ["FAKE_ARGV"]).write_text(json.dumps(args))
out = Path(args[args.index("--out") + 1])
out.mkdir(parents=True, exist_ok=True)
(out / "scorecard.json").write_text(os.environ["FAKE_SCORECARD"])
(out / "scorecard.md").write_text("# Tier Assessment\\n")
sys.exit(int(os.environ["FAKE_EXIT"]))
"""


def _run(tmp_path: Path, doc, exit_code: int = 0, **inputs: str):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "tier-check"
    fake.write_text(FAKE.format(python=sys.executable))
    fake.chmod(0o755)
    outputs, summary, argv = tmp_path / "out.txt", tmp_path / "summary.md", tmp_path / "argv"
    outputs.write_text("")
    summary.write_text("")
    env = {
        # The step's `python3` is this interpreter (as in the real-run test below), not a
        # version manager's shim that may stand first on the caller's PATH.
        "PATH": f"{bin_dir}:{Path(sys.executable).parent}:{os.environ['PATH']}",
        "GITHUB_ACTION_PATH": str(REPO),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        "FAKE_ARGV": str(argv),
        "FAKE_SCORECARD": json.dumps(to_json(doc)),
        "FAKE_EXIT": str(exit_code),
        **{f"TIERCHECK_INPUT_{k.upper()}": v for k, v in inputs.items()},
    }
    done = subprocess.run(
        ["bash", "-e", str(SCRIPT), "assess"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return done.returncode, values, json.loads(argv.read_text()), summary.read_text()


def test_inputs_become_flags(tmp_path: Path) -> None:
    _, _, argv, summary = _run(
        tmp_path,
        tier1_scorecard(),
        sdk="go-sdk",
        sdk_path="sdk",
        revisions="2025-11-25, 2026-07-28",
        expected_failures="conformance/baseline.yml",
        formats="terminal,markdown",
        governance="false",
        repo="me/go-sdk",
        out="report",
    )
    assert argv == [
        "--out",
        "report",
        "--sdk",
        "go-sdk",
        "--sdk-path",
        "sdk",
        "--repo",
        "me/go-sdk",
        "--revision",
        "2025-11-25",
        "--revision",
        "2026-07-28",
        "--expected-failures",
        "conformance/baseline.yml",
        "--skip-governance",
        "--output",
        "terminal",
        "--output",
        "markdown",
    ]
    assert summary == "# Tier Assessment\n"


def test_a_snapshot_replaces_collecting(tmp_path: Path) -> None:
    _, _, argv, _ = _run(tmp_path, tier1_scorecard(), governance_snapshot="g.json")
    assert argv[argv.index("--governance-snapshot") + 1] == "g.json"
    assert "--skip-governance" not in argv


def test_outputs_are_the_scorecards_numbers(tmp_path: Path) -> None:
    doc = mixed_scorecard()
    code, outputs, _, _ = _run(tmp_path, doc, exit_code=1, fail_on="never")
    assert code == 0
    assert outputs == {
        "exit-code": "1",
        "report-dir": "tiercheck-report",
        "tier": "3",
        "sep1730-tier": "3",
        "server-pass-rate": str(doc.checks.conformance.pass_rate),
        "client-pass-rate": str(doc.checks.client_conformance.pass_rate),
    }


@pytest.mark.parametrize(
    ("fail_on", "tier1", "exit_code", "step_fails"),
    [
        ("exit-code", True, 0, False),
        ("exit-code", True, 1, True),
        ("never", False, 1, False),
        ("tier-1", True, 1, False),
        ("tier-1", False, 0, True),
        ("tier-2", False, 0, True),  # the mixed scorecard is Tier 3
    ],
)
def test_fail_on_policies(
    tmp_path: Path, fail_on: str, tier1: bool, exit_code: int, step_fails: bool
) -> None:
    doc = tier1_scorecard() if tier1 else mixed_scorecard()
    code, _, _, _ = _run(tmp_path, doc, exit_code=exit_code, fail_on=fail_on)
    assert (code != 0) is step_fails


def test_an_unknown_policy_is_a_usage_error(tmp_path: Path) -> None:
    code, _, _, _ = _run(tmp_path, tier1_scorecard(), fail_on="sometimes")
    assert code == 2


def test_the_default_sdk_path_of_an_unknown_sdk_fails_the_step(tmp_path: Path) -> None:
    """`sdk-path: .` (the default) in a repository tiercheck has no entry for, no flags: the
    real tier-check runs through the step's own shell, measures nothing and fails the step
    (exit 3), saying why; no harness or build is needed to find that out."""
    repo = tmp_path / "my-mcp-sdk"
    repo.mkdir()
    (repo / "README.md").write_text("an SDK tiercheck has never seen\n")
    outputs, summary = tmp_path / "out.txt", tmp_path / "summary.md"
    outputs.write_text("")
    summary.write_text("")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "TIERCHECK_CACHE": str(tmp_path / "cache"),
        "HOME": str(tmp_path),
        "GITHUB_ACTION_PATH": str(REPO),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        # As action.yml passes the inputs' defaults.
        "TIERCHECK_INPUT_SDK": "",
        "TIERCHECK_INPUT_SDK_PATH": ".",
        "TIERCHECK_INPUT_GOVERNANCE": "false",
        "TIERCHECK_INPUT_FAIL_ON": "exit-code",
        "TIERCHECK_INPUT_OUT": str(tmp_path / "report"),
        "TIERCHECK_INPUT_FORMATS": "terminal",
    }
    env.pop("TIERCHECK_REGISTRY", None)
    done = subprocess.run(
        ["bash", "-e", str(SCRIPT), "assess"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert done.returncode == 3, done.stderr
    assert values["exit-code"] == "3"
    assert values["tier"] == "3"
    assert "my-mcp-sdk is not in the registry" in done.stderr
    for flag in ("--server-cmd", "--server-url", "--client-cmd", "--registry FILE", "init"):
        assert flag in done.stderr
    assert not (tmp_path / "cache" / "harness").exists()  # nothing was provisioned for it
    doc = json.loads((tmp_path / "report" / "scorecard.json").read_text())
    assert {doc["revisions"][r][leg]["state"] for r in doc["revisions"] for leg in LEGS} == {
        "skipped"
    }


ACTIONLINT_INSTALL = ".ci/run installs it with go install"


def _actionlint() -> str | None:
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.is_file() else shutil.which("actionlint")


def _lint_project(tmp_path: Path, workflows: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """actionlint over a project holding our action.yml at its root and `workflows`.

    actionlint checks a local action's inputs only inside a repository with a
    `.github/workflows` folder, so the example workflows are linted from such a copy.
    """
    linter = tools.require("actionlint", _actionlint(), ACTIONLINT_INSTALL)
    project = tmp_path / "project"
    (project / ".github" / "workflows").mkdir(parents=True)
    (project / ".git").mkdir()
    shutil.copy(REPO / "action.yml", project / "action.yml")
    for name, text in workflows.items():
        (project / ".github" / "workflows" / name).write_text(text)
    return subprocess.run(
        [linter, "-no-color"], cwd=project, capture_output=True, text=True, timeout=120, check=False
    )


def test_actionlint_passes_on_the_example_workflows(tmp_path: Path) -> None:
    examples = REPO / "examples" / "workflows"
    done = _lint_project(tmp_path, {p.name: p.read_text() for p in examples.glob("*.yml")})
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_an_input_the_action_does_not_have(tmp_path: Path) -> None:
    text = (REPO / "examples" / "workflows" / "action-selftest.yml").read_text()
    assert "fail-on:" in text
    done = _lint_project(tmp_path, {"bad.yml": text.replace("fail-on:", "fail-onn:")})
    assert done.returncode == 1
    assert 'input "fail-onn" is not defined' in done.stdout


def test_actionlint_passes_on_the_nightly_matrix_workflow(tmp_path: Path) -> None:
    workflow = REPO / ".github" / "workflows" / "nightly-matrix.yml"
    text = workflow.read_text()
    done = _lint_project(tmp_path, {workflow.name: text})
    assert done.returncode == 0, done.stdout + done.stderr
    # what the matrix relies on, which actionlint has no opinion about
    assert "fail-fast: false" in text
    assert "key: tiercheck-harness-${{ needs.plan.outputs.harness }}" in text
    assert "tier-check matrix plan" in text
    assert "tier-check matrix merge jobs --plan plan/plan.json" in text


def test_actionlint_catches_a_matrix_key_the_plan_does_not_give(tmp_path: Path) -> None:
    workflow = REPO / ".github" / "workflows" / "nightly-matrix.yml"
    text = workflow.read_text().replace(
        "needs.plan.outputs.harness }}-", "needs.plan.outputs.harnes }}-"
    )
    done = _lint_project(tmp_path, {workflow.name: text})
    assert done.returncode == 1
    assert "harnes" in done.stdout


def _run_merge_step(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The merge job's last step, as the workflow runs it (bash -e), in `cwd`."""
    import yaml

    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "nightly-matrix.yml").read_text())
    steps = workflow["jobs"]["merge"]["steps"]
    (script,) = [s["run"] for s in steps if "matrix merge" in s.get("run", "")]
    return subprocess.run(
        ["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def sample_plan(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The plan job's output for sample-sdk (the same for every case below: made once)."""
    where = tmp_path_factory.mktemp("plan")
    env = {**os.environ, "TIERCHECK_CACHE": str(where / "cache")}
    planned = subprocess.run(
        [
            str(Path(sys.executable).parent / "tier-check"),
            *("matrix", "plan", "--sdk", "sample-sdk", "--output", "github"),
        ],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return planned.stdout


def _merge_setup(where: Path, plan: str) -> dict[str, str]:
    """`where` as the merge job's workspace before its last step: our tier-check in
    .venv/bin, the plan job's plan, a cache of its own; the step's environment."""
    bin_dir = where / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "tier-check").symlink_to(Path(sys.executable).parent / "tier-check")
    (where / "plan").mkdir()
    (where / "plan" / "plan.json").write_text(plan, encoding="utf-8")
    return {**os.environ, "TIERCHECK_CACHE": str(where / "cache")}


@pytest.fixture(scope="module")
def merged_alone(
    tmp_path_factory: pytest.TempPathFactory, sample_plan: str
) -> tuple[subprocess.CompletedProcess[str], str]:
    """The merge step with no previous matrix (the "none" case below, and the comparable
    previous matrix of the "comparable" one: made once): the step and the matrix.json it
    wrote."""
    where = tmp_path_factory.mktemp("merged")
    done = _run_merge_step(where, _merge_setup(where, sample_plan))
    assert done.returncode == 0, done.stderr
    return done, (where / "matrix" / "matrix.json").read_text("utf-8")


@pytest.mark.parametrize("previous", ["none", "comparable", "unreadable"])
def test_the_merge_step_compares_with_the_previous_matrix_when_it_can(
    previous: str,
    tmp_path: Path,
    sample_plan: str,
    merged_alone: tuple[subprocess.CompletedProcess[str], str],
) -> None:
    if previous == "none":
        done, written = merged_alone
    else:
        env = _merge_setup(tmp_path, sample_plan)
        # A matrix of the same row, or garbage standing for an artifact this tiercheck cannot
        # read (an older schema, a truncated upload).
        text = merged_alone[1] if previous == "comparable" else '{"rows": ['
        (tmp_path / "previous").mkdir()
        (tmp_path / "previous" / "matrix.json").write_text(text, encoding="utf-8")
        done = _run_merge_step(tmp_path, env)
        assert done.returncode == 0, done.stderr
        written = (tmp_path / "matrix" / "matrix.json").read_text("utf-8")
    doc = json.loads(written)
    (row,) = doc["rows"]
    assert row["state"] == "unmeasured"  # its job left nothing
    assert (doc["changes"] is not None) == (previous == "comparable")
    warned = "::warning::the previous matrix could not be compared" in done.stdout
    assert warned == (previous == "unreadable")


# --- the nightly's history, site and notifications -------------------------------------------

NIGHTLY = REPO / ".github" / "workflows" / "nightly-matrix.yml"


def _nightly() -> dict[str, Any]:
    import yaml

    # PyYAML reads the key `on` as True (YAML 1.1); only the jobs matter here.
    return yaml.safe_load(NIGHTLY.read_text())  # type: ignore[no-any-return]


def _step(job: str, name: str) -> str:
    (script,) = [s["run"] for s in _nightly()["jobs"][job]["steps"] if s.get("name") == name]
    return str(script)


def test_the_nightly_keeps_its_history_and_uses_the_commands_as_named() -> None:
    text = NIGHTLY.read_text()
    assert "--no-history" not in text
    assert '--history "$RUNNER_TEMP/history.sqlite" --out "out/$JOB"' in text
    for command in (
        "tier-check history import data/history --history history.sqlite",
        "tier-check history import jobs --history history.sqlite",
        "tier-check history export --history history.sqlite --out data/history",
        "tier-check publish --history history.sqlite --out site --matrix matrix",
        "tier-check notify --history history/history.sqlite",
        '--repo "$GITHUB_REPOSITORY" --pr "$PR"',
    ):
        assert command in text, command
    jobs = _nightly()["jobs"]
    uses = [s.get("uses", "") for job in jobs.values() for s in job["steps"]]
    assert "actions/upload-pages-artifact@v5" in uses
    assert "actions/deploy-pages@v5" in uses
    assert jobs["publish"]["needs"] == ["plan", "merge"]
    assert jobs["deploy"]["needs"] == ["plan", "publish"]
    assert jobs["notify"]["needs"] == ["plan", "publish", "deploy"]


def test_each_write_permission_is_held_by_the_one_job_that_needs_it() -> None:
    workflow = _nightly()
    assert workflow["permissions"] == {"contents": "read", "actions": "read"}
    writes = {name: dict(job.get("permissions", {})) for name, job in workflow["jobs"].items()}
    assert writes == {
        "plan": {},
        "assess": {},
        "merge": {},
        "publish": {"contents": "write"},
        "deploy": {"pages": "write", "id-token": "write"},
        "notify": {"issues": "write"},
        "comment": {"pull-requests": "write"},
    }
    assert workflow["jobs"]["deploy"]["environment"]["name"] == "github-pages"


def test_two_runs_that_write_never_overlap() -> None:
    concurrency = _nightly()["concurrency"]
    group = concurrency["group"]
    # Every run that is not a pull request's shares one group, and none is cancelled.
    assert "github.event_name == 'pull_request'" in group
    assert group.endswith("|| 'data' }}")
    assert concurrency["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"


@pytest.mark.parametrize(
    ("event", "branch", "expected"),
    [
        ("schedule", "main", "true"),
        ("workflow_dispatch", "main", "true"),
        ("workflow_dispatch", "feature", "false"),
        ("pull_request", "7/merge", "false"),
    ],
)
def test_only_the_default_branch_publishes(
    tmp_path: Path, event: str, branch: str, expected: str
) -> None:
    (script,) = [s["run"] for s in _nightly()["jobs"]["plan"]["steps"] if s.get("id") == "where"]
    output = tmp_path / "output"
    output.write_text("")
    env = {**os.environ, "EVENT": event, "BRANCH": branch, "DEFAULT": "main"}
    env["GITHUB_OUTPUT"] = str(output)
    subprocess.run(["bash", "-e", "-c", script], env=env, check=True, timeout=60)
    assert output.read_text() == f"publish={expected}\n"


# A stand-in for `tier-check history export`: the step around it is what is tested here (the
# export itself is tested with the history). It writes one run file per call, named by $NIGHT.
EXPORT = """#!/bin/sh
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = --out ]; then out="$2"; fi
  shift
done
mkdir -p "$out/runs"
[ -z "$NIGHT" ] || echo "{\\"night\\": \\"$NIGHT\\"}" > "$out/runs/$NIGHT.json"
"""


class _Runner:
    """A clone of a bare `origin` laid out as the publish job sees it, running its steps."""

    def __init__(self, tmp_path: Path, origin: Path, name: str) -> None:
        self.root = tmp_path / name
        subprocess.run(["git", "clone", "-q", str(origin), str(self.root)], check=True)
        bin_dir = self.root / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        (bin_dir / "tier-check").write_text(EXPORT)
        (bin_dir / "tier-check").chmod(0o755)
        self.output = self.root / "github-output"
        self.output.write_text("")

    def run(self, step: str, night: str = "") -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "DATA_BRANCH": "tiercheck-data",
            "GITHUB_OUTPUT": str(self.output),
            "GITHUB_RUN_ID": "4242",
            "NIGHT": night,
        }
        return subprocess.run(
            ["bash", "-e", "-c", _step("publish", step)],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def _origin(tmp_path: Path) -> Path:
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    seed = tmp_path / "seed"
    subprocess.run(["git", "clone", "-q", str(origin), str(seed)], check=True)
    (seed / "README.md").write_text("the project\n")
    for args in (["add", "."], ["commit", "-q", "-m", "start"], ["push", "-q", "origin", "main"]):
        subprocess.run(["git", *args], cwd=seed, check=True)
    return origin


def _data_head(origin: Path) -> str:
    done = subprocess.run(
        ["git", "rev-parse", "tiercheck-data"],
        cwd=origin,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _data_files(origin: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "tiercheck-data"],
        cwd=origin,
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout.split()


@pytest.mark.usefixtures("isolated_git")
def test_the_data_branch_is_started_then_extended_and_never_pushed_over_a_newer_state(
    tmp_path: Path,
) -> None:
    for name, value in (("user.name", "Runner"), ("user.email", "runner@example.invalid")):
        subprocess.run(["git", "config", "--global", name, value], check=True)
    origin = _origin(tmp_path)
    push = "export the history and push the data branch"
    # Night 1: no data branch yet: an orphan branch holding only the history.
    first = _Runner(tmp_path, origin, "night1")
    checked = first.run("check out the data branch")
    assert checked.returncode == 0, checked.stderr
    assert first.output.read_text() == "base=\n"
    done = first.run(push, night="2026-10-01")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _data_files(origin) == ["history/runs/2026-10-01.json"]  # not the project's files
    # Night 2: the branch is read at its commit and extended.
    second = _Runner(tmp_path, origin, "night2")
    assert second.run("check out the data branch").returncode == 0
    base = _data_head(origin)
    assert second.output.read_text() == f"base={base}\n"
    assert second.run(push, night="2026-10-02").returncode == 0
    assert _data_files(origin) == [
        "history/runs/2026-10-01.json",
        "history/runs/2026-10-02.json",
    ]
    # Nothing new: no commit, no push.
    third = _Runner(tmp_path, origin, "night2-again")
    third.run("check out the data branch")
    quiet = third.run(push)
    assert (quiet.returncode, quiet.stdout.strip()) == (0, "no new runs to record")
    # Night 3 is read, then another run pushes a newer state before it is written back.
    stale = _Runner(tmp_path, origin, "night3-stale")
    stale.run("check out the data branch")
    newer = _Runner(tmp_path, origin, "night3-newer")
    newer.run("check out the data branch")
    assert newer.run(push, night="2026-10-03").returncode == 0
    head = _data_head(origin)
    refused = stale.run(push, night="2026-10-03b")
    assert refused.returncode == 1
    assert "::error::the data branch moved since this run read it" in refused.stdout
    after = _data_head(origin)
    assert after == head
    assert "history/runs/2026-10-03b.json" not in _data_files(origin)


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (("needs.deploy.outputs.page_url", "needs.deploy.outputs.page_uri"), "page_uri"),
        (("      issues: write", "      issue: write"), "issue"),
        (("needs: [plan, publish, deploy]", "needs: [plan, publish, deploy, report]"), "report"),
    ],
)
def test_actionlint_catches_a_mistake_in_the_publishing_jobs(
    tmp_path: Path, change: tuple[str, str], found: str
) -> None:
    text = NIGHTLY.read_text()
    assert change[0] in text
    done = _lint_project(tmp_path, {NIGHTLY.name: text.replace(change[0], change[1])})
    assert done.returncode == 1
    assert found in done.stdout
