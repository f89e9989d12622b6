"""End to end: `tier-check matrix` on the sample matrix, as a user runs it, and the same
matrix spread over separate jobs and merged.

The sample matrix is built by `examples/matrix/sample_matrix.py` (the README's command uses
it): a local git repository of `examples/sample-sdk` with three tags — v1.0.0 as shipped,
v1.1.0 whose `test_simple_text` tool answers an empty text, v1.2.0 whose client.py does not
compile — and a fourth row, `sample-sdk-net`, declared (here) to need `dotnet>=99`, which no
machine has. What each row must show is worked out from those edits:

* v1.0.0: every scored scenario passes at both revisions and both legs; the sample's recorded
  governance makes it Tier 3 (`examples/sample-sdk/governance-snapshot.json`);
* v1.1.0: the one server scenario that calls `test_simple_text`, tools-call-simple-text, fails
  at both revisions (both serve the common fixtures) and nothing else does;
* v1.2.0: the build fails, so no leg is measured and no scenario is failed;
* sample-sdk-net: not runnable, unmeasured, with the missing tool named.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from support.junit_schema import junit_schema_errors
from support.procutil import MARK_ENV, interruptible, leftover_processes, wait_for
from support.schema_check import conforms
from tiercheck.conformance.harness import provision

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = REPO / "examples" / "sample-sdk" / "governance-snapshot.json"
R1, R2 = "2025-11-25", "2026-07-28"
CLEAN, BROKEN, NO_BUILD, NO_TOOL = (
    "sample-sdk@v1.0.0",
    "sample-sdk@v1.1.0",
    "sample-sdk@v1.2.0",
    "sample-sdk-net@v1.0.0",
)
RUN_TIMEOUT_S = 2400.0
_OURS = re.compile(r"^(TIERCHECK_|GIT_|GITHUB_|GH_)|(^|_)(TOKEN|KEY)($|_)", re.IGNORECASE)

pytestmark = pytest.mark.timeout(3600)


@dataclass(frozen=True)
class Sample:
    """The sample matrix: its repository, matrix file, registry and a test-wide cache."""

    root: Path
    matrix_file: Path
    registry: Path
    cache: Path
    home: Path

    def env(self, cache: Path | None = None, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not _OURS.search(k)}
        env.update(
            TIERCHECK_CACHE=str(cache or self.cache),
            GIT_CONFIG_GLOBAL=str(self.home / "gitconfig"),
            GIT_CONFIG_NOSYSTEM="1",
            NO_COLOR="1",
        )
        env.pop("CI", None)
        env.pop("GITHUB_STEP_SUMMARY", None)
        env.update(extra)
        return env

    def fresh_cache(self, path: Path) -> Path:
        """A cache of its own (no clone, no build) sharing only the provisioned harness."""
        path.mkdir(parents=True)
        (path / "harness").symlink_to((self.cache / "harness").resolve())
        return path


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str

    def explain(self) -> str:
        return f"exit {self.returncode}\nstderr:\n{self.stderr[-6000:]}"


def tier_check(*args: str, env: Mapping[str, str], timeout_s: float = RUN_TIMEOUT_S) -> Done:
    """`python -m tiercheck ARGS` to the end; no process of it may be left afterwards."""
    mark = uuid.uuid4().hex
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tiercheck", *args],
            cwd=REPO,
            env={**env, MARK_ENV: mark},
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    finally:
        _assert_nothing_left(mark)
    return Done(done.returncode, done.stdout, done.stderr)


def _described(proc: Any) -> str:
    """A lingering process as the failure names it: its pid and command line."""
    try:
        return f"{proc.pid} {' '.join(proc.cmdline())[:200]}"
    except psutil.Error:  # gone while being described
        return f"{proc.pid}"


def _assert_nothing_left(mark: str) -> None:
    lingering: list[Any] = []

    def settled() -> bool:
        nonlocal lingering
        lingering = leftover_processes(mark)
        return not lingering

    if not wait_for(settled, timeout_s=20.0, interval_s=0.2):
        described = "; ".join(_described(p) for p in lingering)
        for proc in lingering:  # only processes carrying this run's mark
            proc.kill()
        pytest.fail(f"tier-check left processes behind: {described}")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    root = tmp_path_factory.mktemp("sample-matrix")
    cache = root / "cache"
    cache.mkdir()
    explicit = os.environ.get("TIERCHECK_CACHE")
    if explicit:
        provision(Path(explicit))
        (cache / "harness").symlink_to((Path(explicit) / "harness").resolve())
    provision(cache)
    home = root / "home"
    home.mkdir()
    made = subprocess.run(
        [sys.executable, str(REPO / "examples" / "matrix" / "sample_matrix.py"), str(root / "m")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "GIT_CONFIG_GLOBAL": str(home / "gitconfig")},
    )
    matrix_file = Path(made.stdout.strip())
    # The shipped sample registry asks for .NET 10; no machine has .NET 99, so the row is
    # unrunnable wherever the test runs.
    text = (REPO / "examples" / "matrix" / "known_sdks.yaml").read_text("utf-8")
    assert text.count("dotnet>=10") == 1
    registry = root / "known_sdks.yaml"
    registry.write_text(text.replace("dotnet>=10", "dotnet>=99"), encoding="utf-8")
    return Sample(root, matrix_file, registry, cache, home)


def _matrix_args(sample: Sample, out: Path, *extra: str, history: Path | None = None) -> list[str]:
    return [
        "matrix",
        "--matrix",
        str(sample.matrix_file),
        "--registry",
        str(sample.registry),
        "--governance-snapshot",
        str(SNAPSHOT),
        *(["--history", str(history)] if history else ["--no-history"]),
        "--out",
        str(out),
        *extra,
    ]


@pytest.fixture(scope="module")
def one_machine(sample: Sample) -> tuple[Done, Path]:
    out = sample.root / "one-machine"
    # Every runnable row at once, whatever the cores: two refs of one repository must overlap.
    args = _matrix_args(sample, out, "--max-rows", "3", history=_history_of(sample))
    done = tier_check(*args, env=sample.env())
    return done, out


def _history_of(sample: Sample) -> Path:
    """The history the one-machine matrix's rows append to."""
    return sample.root / "history.sqlite"


def _doc(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "matrix.json").read_text("utf-8"))
    return data


def _row(doc: Mapping[str, Any], row_id: str) -> dict[str, Any]:
    matches = [r for r in doc["rows"] if r["id"] == row_id]
    assert len(matches) == 1, [r["id"] for r in doc["rows"]]
    row: dict[str, Any] = matches[0]
    return row


def _verdicts(row: Mapping[str, Any]) -> dict[tuple[str, str, str], str]:
    return {
        (cell["revision"], cell["leg"], s["scenario"]): s["verdict"]
        for cell in row["legs"]
        for s in cell["scenarios"]
    }


def test_the_matrix_writes_every_file(one_machine: tuple[Done, Path]) -> None:
    done, out = one_machine
    assert done.returncode == 0, done.explain()
    for name in ("matrix.json", "matrix.md", "junit.xml", "matrix.html", "matrix.txt"):
        assert (out / name).is_file(), name
    html = (out / "matrix.html").read_text("utf-8")
    for row_id in (CLEAN, BROKEN, NO_BUILD, NO_TOOL):
        assert row_id in html
    schema = json.loads((REPO / "tiercheck" / "schemas" / "matrix.schema.json").read_text())
    conforms(_doc(out), schema)
    # every runnable row's folder is a whole single-run report folder
    for row_id in (CLEAN, BROKEN, NO_BUILD):
        folder = out / _row(_doc(out), row_id)["scorecard"]
        for name in ("scorecard.json", "scorecard.md", "junit.xml", "scorecard.txt"):
            assert (folder / name).is_file(), (row_id, name)
        assert (folder / "logs" / "build.log").is_file()
    assert not (out / "rows" / NO_TOOL).exists()
    # matrix.md: one line per SDK row under the header; a row id holding `@` is a code span
    # (render.markdown: no mention or e-mail autolink can form from it)
    table = [
        ln for ln in (out / "matrix.md").read_text("utf-8").splitlines() if ln.startswith("| ")
    ]
    assert [ln.split(" | ")[0] for ln in table[1:]] == [
        f"| `{r}`" if "@" in r else f"| {r}" for r in (CLEAN, BROKEN, NO_BUILD, NO_TOOL)
    ]
    # junit.xml: a suite per row × revision × leg, valid against the xunit plugin's schema
    junit = (out / "junit.xml").read_text("utf-8")
    assert junit_schema_errors(junit) == []
    suites = re.findall(r'<testsuite name="([^"]+)"', junit)
    assert len(suites) == 4 * 2 * 2
    assert f"{BROKEN} {R2} server" in suites
    # the terminal summary went to stdout
    assert CLEAN in done.stdout
    assert "Tier 3" in done.stdout


def test_history_import_of_the_matrix_folder_gives_the_history_its_rows_wrote(
    one_machine: tuple[Done, Path], sample: Sample
) -> None:
    done, out = one_machine
    assert done.returncode == 0, done.explain()
    imported = sample.root / "imported.sqlite"
    loaded = tier_check("history", "import", str(out), "--history", str(imported), env=sample.env())
    assert loaded.returncode == 0, loaded.explain()

    def report(db: Path) -> dict[str, Any]:
        shown = tier_check(
            "history", "--sdk", "sample-sdk", "--history", str(db), "--output", "json",
            "--as-of", "2099-01-01", env=sample.env(),
        )  # fmt: skip
        assert shown.returncode == 0, shown.explain()
        data: dict[str, Any] = json.loads(shown.stdout)
        data.pop("database")
        return data

    written, again = report(_history_of(sample)), report(imported)
    # The three runnable rows are three runs of the sample-sdk line (the .NET row never ran).
    assert written["runs"] == 3
    assert again == written


def test_the_clean_row_is_tier_3_with_full_scores(one_machine: tuple[Done, Path]) -> None:
    _, out = one_machine
    row = _row(_doc(out), CLEAN)
    assert row["state"] == "measured", row["reason"]
    card = json.loads((out / row["scorecard"] / "scorecard.json").read_text("utf-8"))
    assert row["tier"] == {
        "official": 3,
        "sep1730": card["implied_tier"]["sep1730"]["tier"],
        "claimed": 3,
        "below_claim": False,
        "governance_inconclusive": False,
    }
    assert [(c["revision"], c["leg"], c["state"]) for c in row["legs"]] == [
        (R1, "server", "measured"),
        (R1, "client", "measured"),
        (R2, "server", "measured"),
        (R2, "client", "measured"),
    ]
    for cell in row["legs"]:
        assert cell["passed"] == cell["total"] > 0, cell
    assert "failed" not in _verdicts(row).values()
    for cell in row["legs"]:
        leg = card["revisions"][cell["revision"]][cell["leg"]]
        assert (cell["passed"], cell["total"]) == (leg["passed"], leg["total"])


def test_the_regressed_row_shows_exactly_the_broken_scenario(
    one_machine: tuple[Done, Path],
) -> None:
    _, out = one_machine
    row = _row(_doc(out), BROKEN)
    failed = {key for key, verdict in _verdicts(row).items() if verdict == "failed"}
    assert failed == {
        (R1, "server", "tools-call-simple-text"),
        (R2, "server", "tools-call-simple-text"),
    }
    clean = _row(_doc(out), CLEAN)
    for c_clean, c_broken in zip(clean["legs"], row["legs"], strict=True):
        lost = 1 if c_broken["leg"] == "server" else 0
        assert c_broken["passed"] == c_clean["passed"] - lost
        assert c_broken["total"] == c_clean["total"]
    broken = next(
        s
        for c in row["legs"]
        if c["revision"] == R1 and c["leg"] == "server"
        for s in c["scenarios"]
        if s["scenario"] == "tools-call-simple-text"
    )
    assert broken["check"]
    assert broken["message"]


def test_the_build_failure_and_the_missing_toolchain_are_unmeasured(
    one_machine: tuple[Done, Path],
) -> None:
    _, out = one_machine
    doc = _doc(out)
    no_build = _row(doc, NO_BUILD)
    assert no_build["state"] == "unmeasured"
    assert "build" in no_build["reason"]
    assert {c["state"] for c in no_build["legs"]} == {"unmeasured"}
    assert "failed" not in _verdicts(no_build).values()
    no_tool = _row(doc, NO_TOOL)
    assert (no_tool["state"], no_tool["runnable"], no_tool["tier"]) == ("unmeasured", False, None)
    assert "dotnet" in no_tool["reason"]
    assert {c["state"] for c in no_tool["legs"]} == {"unmeasured"}
    assert no_tool["scorecard"] is None


def test_rows_of_one_repository_at_two_refs_ran_together(one_machine: tuple[Done, Path]) -> None:
    _, out = one_machine
    # They overlapped: each row's log starts before the other's ends.
    spans = {}
    for row_id in (CLEAN, BROKEN):
        stamps = re.findall(
            r"^\[(\d\d:\d\d:\d\d)\]", (out / "logs" / f"{row_id}.log").read_text(), re.M
        )
        spans[row_id] = (stamps[0], stamps[-1])
    assert spans[CLEAN][0] < spans[BROKEN][1]
    assert spans[BROKEN][0] < spans[CLEAN][1]


@pytest.mark.slow  # three more whole assessments, one after another, as separate runners would
def test_rows_run_together_match_single_runs(
    one_machine: tuple[Done, Path], separate_jobs: Jobs
) -> None:
    _, out = one_machine
    doc = _doc(out)
    # A separate job is `tier-check --sdk ROW` in a process, cache and folder of its own: the
    # single run each row must match.
    for row_id in (CLEAN, BROKEN):
        single_out = separate_jobs.out_of(row_id)
        card = json.loads((single_out / "scorecard.json").read_text("utf-8"))
        single = {
            (rev, leg, d["scenario"]): (
                "not-scored" if d.get("notScoredReason") else "passed" if d["passed"] else "failed"
            )
            for rev, entry in card["revisions"].items()
            for leg in ("server", "client")
            for d in entry[leg]["details"]
        }
        assert _verdicts(_row(doc, row_id)) == single, row_id
        assert _row(doc, row_id)["tier"]["official"] == card["implied_tier"]["tier"]


def _normalised(doc: Mapping[str, Any], roots: list[Path]) -> Any:
    """`doc` without what may differ between two runs of the same rows: times, paths, ports."""

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items() if k not in _VOLATILE}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        if isinstance(value, str):
            for root in roots:
                value = value.replace(str(root), "<path>")
            return re.sub(r"(127\.0\.0\.1|localhost):\d+", r"\1:<port>", value)
        return value

    scrubbed = scrub(dict(doc))
    for row in scrubbed["rows"]:
        # concurrent-ids observes a race (duplicate JSON-RPC ids in flight at once): whether the
        # sample's server cross-wires them this time is timing, so that advisory probe passes
        # in one run and warns in the next. What the probes ran, and what failed, must agree.
        row["probes"] = [
            {
                "revision": p["revision"],
                "ran": p["passed"] + p["warned"] + p["failed"] + p["skipped"],
                "failed": p["failed"],
            }
            for p in row["probes"]
        ]
    return scrubbed


def _differences(left: Any, right: Any, path: str = "$") -> list[str]:
    """Every place two JSON values differ, as "path: left → right" lines (pytest's own diff of
    two large documents is cut before it reaches them)."""
    if isinstance(left, dict) and isinstance(right, dict):
        return [
            line
            for key in sorted({*left, *right})
            for line in _differences(
                left.get(key, "<absent>"), right.get(key, "<absent>"), f"{path}.{key}"
            )
        ]
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        return [
            line
            for i, (a, b) in enumerate(zip(left, right, strict=True))
            for line in _differences(a, b, f"{path}[{i}]")
        ]
    return [] if left == right else [f"{path}: {left!r} → {right!r}"]


#: `trend` is the run history's view of a row's SDK line, and a history is per machine: the
#: one-machine rows append to one history, separate runners each to their own (none here).
_VOLATILE = {"run_id", "started_at", "finished_at", "duration_s", "scorecard", "trend"}


@dataclass(frozen=True)
class Jobs:
    """The plan for GitHub Actions and its jobs, each run as a separate runner would run it."""

    plan_file: Path
    artifacts: Path
    jobs: list[dict[str, Any]]

    def out_of(self, row_id: str) -> Path:
        """The folder the job of `row_id` wrote."""
        (job,) = [j for j in self.jobs if j["row"] == row_id]
        return self.artifacts / job["job"]


@pytest.fixture(scope="module")
def separate_jobs(sample: Sample) -> Jobs:
    planned = tier_check(
        "matrix",
        "plan",
        "--matrix",
        str(sample.matrix_file),
        "--registry",
        str(sample.registry),
        "--output",
        "github",
        env=sample.env(),
    )
    assert planned.returncode == 0, planned.explain()
    plan = json.loads(planned.stdout)
    jobs = plan["matrix"]["include"]
    assert [j["row"] for j in jobs] == [CLEAN, BROKEN, NO_BUILD]
    assert [u["row"] for u in plan["unrunnable"]] == [NO_TOOL]
    plan_file = sample.root / "plan.json"
    plan_file.write_text(planned.stdout, encoding="utf-8")
    # Each job as a separate runner would run it: its own process, cache and output folder,
    # and a machine of its own, so one after another: three jobs at once on one machine, each
    # with a client slot per core, would load it three times over, which no runner sees.
    artifacts = sample.root / "artifacts"
    codes = []
    for job in jobs:
        cache = sample.fresh_cache(sample.root / "job-caches" / job["job"])
        argv = [
            *job["args"].split(" "),
            "--registry",
            str(sample.registry),
            "--governance-snapshot",
            str(SNAPSHOT),
            "--no-history",
            "--out",
            str(artifacts / job["job"]),
        ]
        codes.append(tier_check(*argv, env=sample.env(cache)).returncode)
    # Hand-worked: the clean tag passes (0), the broken one fails a scored scenario (1), the
    # one that does not build measures nothing (3); the merge reads each job's scorecard alike.
    assert codes == [0, 1, 3], codes
    return Jobs(plan_file, artifacts, jobs)


@pytest.mark.slow  # the separate jobs above
def test_plan_then_separate_jobs_then_merge_equals_the_one_machine_matrix(
    sample: Sample, one_machine: tuple[Done, Path], separate_jobs: Jobs
) -> None:
    _, one_out = one_machine
    plan_file, artifacts = separate_jobs.plan_file, separate_jobs.artifacts
    merged_out = sample.root / "merged"
    summary = sample.root / "step-summary.md"
    merged = tier_check(
        "matrix",
        "merge",
        str(artifacts),
        "--plan",
        str(plan_file),
        "--registry",
        str(sample.registry),
        "--out",
        str(merged_out),
        env=sample.env(GITHUB_STEP_SUMMARY=str(summary)),
    )
    assert merged.returncode == 0, merged.explain()
    roots = [one_out, artifacts, sample.root]
    differences = _differences(
        _normalised(_doc(one_out), roots), _normalised(_doc(merged_out), roots)
    )
    assert not differences, "one machine → merged:\n" + "\n".join(differences)
    assert summary.read_text("utf-8") == (merged_out / "matrix.md").read_text("utf-8")


def test_merge_names_a_job_that_left_nothing_and_fails_on_a_regression(
    sample: Sample, one_machine: tuple[Done, Path]
) -> None:
    _, one_out = one_machine
    # The previous night, v1.1.0's broken scenario still passed.
    previous = _doc(one_out)
    for cell in _row(previous, BROKEN)["legs"]:
        for scenario in cell["scenarios"]:
            if scenario["scenario"] == "tools-call-simple-text":
                scenario.update(verdict="passed", check=None, message=None)
    previous_file = sample.root / "previous.json"
    previous_file.write_text(json.dumps(previous), encoding="utf-8")
    jobs = sample.root / "partial-jobs"
    jobs.mkdir()
    (jobs / CLEAN).symlink_to(one_out / "rows" / CLEAN)
    (jobs / BROKEN).symlink_to(one_out / "rows" / BROKEN)
    (jobs / NO_BUILD).mkdir()
    (jobs / NO_BUILD / "scorecard.json").write_text('{"truncated": ', encoding="utf-8")
    planned = tier_check(
        "matrix",
        "plan",
        "--matrix",
        str(sample.matrix_file),
        "--registry",
        str(sample.registry),
        env=sample.env(),
    )
    plan_file = sample.root / "plan-partial.json"
    plan_file.write_text(planned.stdout, encoding="utf-8")
    out = sample.root / "merged-partial"
    done = tier_check(
        "matrix",
        "merge",
        str(jobs),
        "--plan",
        str(plan_file),
        "--registry",
        str(sample.registry),
        "--previous",
        str(previous_file),
        "--fail-on",
        "regression",
        "--out",
        str(out),
        "--output",
        "json",
        env=sample.env(),
    )
    assert done.returncode == 1, done.explain()
    doc = json.loads(done.stdout)
    corrupt = _row(doc, NO_BUILD)
    assert corrupt["state"] == "unmeasured"
    assert corrupt["reason"].startswith(f"the job {NO_BUILD}: ")
    assert [(c["row"], c["revision"], c["scenario"]) for c in doc["changes"]["new_failures"]] == [
        (BROKEN, R1, "tools-call-simple-text"),
        (BROKEN, R2, "tools-call-simple-text"),
    ]
    assert doc["changes"]["fixes"] == []


def test_sigint_stops_every_row_leaves_nothing_and_writes_the_partial_matrix(
    sample: Sample, one_machine: tuple[Done, Path]
) -> None:
    out = sample.root / "interrupted"
    mark = uuid.uuid4().hex
    proc = subprocess.Popen(
        [sys.executable, "-m", "tiercheck", *_matrix_args(sample, out)],
        cwd=REPO,
        env={**sample.env(), MARK_ENV: mark},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,  # noqa: PLW1509 - one signal call, no lock taken
    )
    try:
        # Wait until both sample rows are in their legs (builds are cached by now).
        def in_legs() -> bool:
            logs = [out / "logs" / f"{r}.log" for r in (CLEAN, BROKEN)]
            return all(p.is_file() and "leg 2025-11-25" in p.read_text() for p in logs)

        assert wait_for(in_legs, timeout_s=900.0, interval_s=0.5), "the rows never reached the legs"
        time.sleep(2.0)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
        _assert_nothing_left(mark)
    assert proc.returncode == 130, stderr[-4000:]
    doc = _doc(out)
    assert doc["interrupted"] is True
    for row_id in (CLEAN, BROKEN):
        row = _row(doc, row_id)
        assert row["state"] == "interrupted", row
        # what was not measured is not failed
        card = json.loads((out / row["scorecard"] / "scorecard.json").read_text("utf-8"))
        assert card["interrupted"] is True
    assert _row(doc, NO_TOOL)["state"] == "unmeasured"
    assert "interrupted" in stderr
