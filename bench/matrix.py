"""The sample matrix three ways, side by side: wall time and peak memory of each.

    .venv/bin/python bench/matrix.py [--json bench/results/matrix.json] [--no-prime]
        [--real NAME@REF=GIT_URL ...]

(a) `tier-check matrix` on the sample matrix (examples/matrix/sample_matrix.py): every row at
    once under the machine-wide budgets;
(b) the same rows through `tier-check --sdk ROW` one after another;
(c) the official harness's own orchestration (`sdk` once per leg and revision, one after
    another, as bench/compare.py drives it) of each row whose build succeeds, one row after
    another, in the built working trees (a row whose build fails and a row whose toolchain is
    missing cost the official tool nothing measurable: it stops at them).

`--real` adds a real SDK line of known_sdks.yaml at a ref, cloned from GIT_URL (a local
mirror: `--real go-sdk@main=file:///…/go-sdk`), to all three sides.

Builds are primed first (one `tier-check matrix` run, not measured), so (a) and (b) find every
build cached except the row whose build fails, which each side pays once. Measuring is
bench/compare.py's: the peak of the summed RSS of every process below the benchmark, the wall
time from start to exit. Verdicts per row and scenario must be identical between (a) and (b),
and between (a) and (c) for the rows (c) runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from compare import (
    REPO,
    Step,
    become_subreaper,
    load_config,
    measure,
    official_steps,
    ratio,
    scenario_verdicts,
    wait_for_quiet,
)

SNAPSHOT = REPO / "examples" / "sample-sdk" / "governance-snapshot.json"
REGISTRY = REPO / "examples" / "matrix" / "known_sdks.yaml"
#: Sampling interval: a matrix is hundreds of processes (every waiting client is a shell and a
#: `flock`), and walking them ten times a second took most of a core from the run measured.
SAMPLE_S = 1.0
#: Before each side: wait up to this long for the machine to be less than this % busy.
QUIET_WAIT_S, QUIET_BUSY_PCT = 300.0, 20.0
SAMPLE_ROWS = ("sample-sdk@v1.0.0", "sample-sdk@v1.1.0", "sample-sdk@v1.2.0")
#: The sample rows whose build succeeds: the official orchestration runs these.
SAMPLE_BUILT = SAMPLE_ROWS[:2]


def tier_check(*args: str) -> list[str]:
    return [sys.executable, "-m", "tiercheck", *args]


def row_verdicts(card: dict[str, Any]) -> dict[str, bool]:
    """ "<rev>/<leg>/<scenario>" → passed, from a scorecard."""
    return {
        f"{rev}/{leg}/{d['scenario']}": bool(d["passed"])
        for rev, entry in card.get("revisions", {}).items()
        for leg in ("server", "client")
        for d in entry[leg]["details"]
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the result here")
    parser.add_argument("--no-prime", action="store_true", help="the cache's builds are warm")
    parser.add_argument(
        "--real",
        action="append",
        default=[],
        metavar="NAME@REF=GIT_URL",
        help="a real SDK line at a ref, cloned from GIT_URL (repeatable)",
    )
    args = parser.parse_args()
    real = [_real_row(text) for text in args.real]
    from tiercheck.conformance.harness import provision
    from tiercheck.paths import default_cache_dir
    from tiercheck.sdk.checkout import worktree_path

    cache = Path(os.environ.get("TIERCHECK_CACHE") or default_cache_dir()).resolve()
    harness = provision(cache)
    become_subreaper()
    work = Path(tempfile.mkdtemp(prefix="tiercheck-bench-matrix-"))
    made = subprocess.run(
        [sys.executable, str(REPO / "examples" / "matrix" / "sample_matrix.py"), str(work / "m")],
        capture_output=True,
        text=True,
        check=True,
    )
    matrix_file = Path(made.stdout.strip())
    url = (work / "m" / "sample-sdk.git").as_uri()
    registry = _registry(work / "known_sdks.yaml", [name for name, _, _ in real])
    # The sample rows replay the sample's recorded governance; a real line has none recorded,
    # so its governance is asked of GitHub, which is out of reach here and given up at once.
    snapshots: dict[str, Path | None] = dict.fromkeys(SAMPLE_ROWS, SNAPSHOT)
    snapshots |= dict.fromkeys((f"{n}@{r}" for n, r, _ in real), None)
    _add_rows(matrix_file, SNAPSHOT, real)
    rows = [*SAMPLE_ROWS, *(f"{name}@{ref}" for name, ref, _ in real)]
    urls = dict.fromkeys(SAMPLE_ROWS, url) | {f"{n}@{r}": u for n, r, u in real}
    env = {**os.environ, "TIERCHECK_CACHE": str(cache)}
    common = ["--registry", str(registry), "--no-history"]

    def governance(row: str) -> list[str]:
        snapshot = snapshots[row]
        return ["--governance-snapshot", str(snapshot)] if snapshot else []

    def matrix_step(out: Path) -> Step:
        argv = tier_check("matrix", "--matrix", str(matrix_file), *common, "--out", str(out))
        return Step(argv, REPO, env, work / f"{out.name}.log")

    quiet: dict[str, dict[str, float]] = {}
    if not args.no_prime:
        print("priming the builds (not measured)", file=sys.stderr)
        measure("prime", 0, [matrix_step(work / "prime")])
    print("(a) tier-check matrix", file=sys.stderr)
    quiet["a"] = wait_for_quiet(QUIET_WAIT_S, QUIET_BUSY_PCT)
    a = measure("a", 0, [matrix_step(work / "a")], interval_s=SAMPLE_S, pss=False)
    print("(b) tier-check per row, one after another", file=sys.stderr)
    b_steps = [
        Step(
            tier_check(
                *("--sdk", row, "--git-url", urls[row], *common, *governance(row)),
                *("--out", str(work / "b" / row)),
            ),
            REPO,
            env,
            work / f"b-{row}.log",
        )
        for row in rows
    ]
    quiet["b"] = wait_for_quiet(QUIET_WAIT_S, QUIET_BUSY_PCT)
    b = measure("b", 0, b_steps, interval_s=SAMPLE_S, pss=False)
    print("(c) the official orchestration per built row, one after another", file=sys.stderr)
    built = [*SAMPLE_BUILT, *(f"{name}@{ref}" for name, ref, _ in real)]
    configs = {name: load_config(name, cache) for name in {row.split("@")[0] for row in built}}
    repos = {"sample-sdk": "tiercheck/sample-sdk"} | {
        name: _repo_of(name, registry) for name, _, _ in real
    }
    c_steps: list[Step] = []
    for row in built:
        name, ref = row.split("@", 1)
        tree = worktree_path(repos[name], ref, cache / "repos")
        c_steps += official_steps(
            configs[name], harness_argv=harness.argv(), sdk_path=tree, out=work / "c" / row
        )
    quiet["c"] = wait_for_quiet(QUIET_WAIT_S, QUIET_BUSY_PCT)
    c = measure("c", 0, c_steps, interval_s=SAMPLE_S, pss=False)

    matrix = json.loads((work / "a" / "matrix.json").read_text())
    same_ab, same_ac, compared = True, True, 0
    for row in rows:
        a_card = json.loads((work / "a" / "rows" / row / "scorecard.json").read_text())
        b_card = json.loads((work / "b" / row / "scorecard.json").read_text())
        va, vb = row_verdicts(a_card), row_verdicts(b_card)
        same_ab &= va == vb
        compared += len(va)
        if row in built:
            revisions = configs[row.split("@")[0]]
            for key in (f"{r.name}/{leg}" for r in revisions for leg in ("server", "client")):
                official = scenario_verdicts(work / "c" / row / key, key.split("/")[1])
                mine = {k.split("/", 2)[2]: v for k, v in va.items() if k.startswith(key + "/")}
                same_ac &= official == mine
    result = {
        "rows": [r["id"] for r in matrix["rows"]],
        "tiers": {r["id"]: (r["tier"] or {}).get("official") for r in matrix["rows"]},
        **{
            side.side: {
                "wall_s": side.wall_s,
                "peak_rss_mb": side.peak_rss_mb,
                "cpu_s": side.cpu_s,
                "peak_processes": side.peak_processes,
                "sampler_cpu_s": side.bench_cpu_s,
            }
            for side in (a, b, c)
        },
        "wall_a_over_b": ratio(a.wall_s, b.wall_s),
        "wall_a_over_c": ratio(a.wall_s, c.wall_s),
        "rss_a_over_b": ratio(a.peak_rss_mb, b.peak_rss_mb),
        "rss_a_over_c": ratio(a.peak_rss_mb, c.peak_rss_mb),
        # No schedule beats the machine: (a) does (b)'s work, so its wall is at least (b)'s
        # CPU spread over every core, and (a)/(b) at least this.
        "wall_a_over_b_floor": ratio(b.cpu_s / (os.cpu_count() or 1), b.wall_s),
        "verdicts_identical_a_b": same_ab,
        "verdicts_identical_a_c": same_ac,
        "scenarios_compared": compared,
        "foreign_cpu_s": {"a": a.foreign_cpu_s, "b": b.foreign_cpu_s, "c": c.foreign_cpu_s},
        "cores": os.cpu_count(),
        "quiet_before": quiet,
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


def _real_row(text: str) -> tuple[str, str, str]:
    """NAME@REF=GIT_URL → (name, ref, url)."""
    row, sep, url = text.partition("=")
    name, at, ref = row.partition("@")
    if not (sep and at and name and ref and url):
        raise SystemExit(f"--real {text!r}: expected NAME@REF=GIT_URL")
    return name, ref, url


def _add_rows(matrix_file: Path, snapshot: Path, real: list[tuple[str, str, str]]) -> None:
    """Give the sample rows of `matrix_file` the sample's snapshot, and add the real rows."""
    import yaml

    doc = yaml.safe_load(matrix_file.read_text(encoding="utf-8"))
    for row in doc["rows"]:
        row["governance_snapshot"] = str(snapshot)
    doc["rows"] += [{"sdk": name, "ref": ref, "git_url": url} for name, ref, url in real]
    matrix_file.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


def _registry(dest: Path, real: list[str]) -> Path:
    """The sample matrix's registry plus the real lines asked for, from known_sdks.yaml."""
    import yaml

    merged = yaml.safe_load(REGISTRY.read_text(encoding="utf-8"))
    known = yaml.safe_load((REPO / "known_sdks.yaml").read_text(encoding="utf-8"))
    for name in real:
        if name not in known:
            raise SystemExit(f"--real {name}: not a line of known_sdks.yaml")
        merged[name] = known[name]
    dest.write_text(yaml.safe_dump(merged, sort_keys=False), encoding="utf-8")
    return dest


def _repo_of(name: str, registry: Path) -> str:
    import yaml

    repo: str = yaml.safe_load(registry.read_text(encoding="utf-8"))[name]["repo"]
    return repo


if __name__ == "__main__":
    sys.exit(main())
