"""The sample matrix three ways, side by side: wall time and peak memory of each.

    .venv/bin/python bench/matrix.py [--json bench/results/matrix.json] [--no-prime]

(a) `tier-check matrix` on the sample matrix (examples/matrix/sample_matrix.py): every row at
    once under the machine-wide budgets;
(b) the same rows through `tier-check --sdk ROW` one after another;
(c) the official harness's own orchestration (`sdk` once per leg and revision, one after
    another, as bench/compare.py drives it) of each row whose build succeeds, one row after
    another, in the built working trees (a row whose build fails and a row whose toolchain is
    missing cost the official tool nothing measurable: it stops at them).

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
)

SNAPSHOT = REPO / "examples" / "sample-sdk" / "governance-snapshot.json"
REGISTRY = REPO / "examples" / "matrix" / "known_sdks.yaml"
ROWS = ("sample-sdk@v1.0.0", "sample-sdk@v1.1.0", "sample-sdk@v1.2.0")


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
    args = parser.parse_args()
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
    env = {**os.environ, "TIERCHECK_CACHE": str(cache)}
    common = ["--registry", str(REGISTRY), "--governance-snapshot", str(SNAPSHOT), "--no-history"]

    def matrix_step(out: Path) -> Step:
        argv = tier_check("matrix", "--matrix", str(matrix_file), *common, "--out", str(out))
        return Step(argv, REPO, env, work / f"{out.name}.log")

    if not args.no_prime:
        print("priming the builds (not measured)", file=sys.stderr)
        measure("prime", 0, [matrix_step(work / "prime")])
    print("(a) tier-check matrix", file=sys.stderr)
    a = measure("a", 0, [matrix_step(work / "a")])
    print("(b) tier-check per row, one after another", file=sys.stderr)
    b_steps = [
        Step(
            tier_check("--sdk", row, "--git-url", url, *common, "--out", str(work / "b" / row)),
            REPO,
            env,
            work / f"b-{row}.log",
        )
        for row in ROWS
    ]
    b = measure("b", 0, b_steps)
    print("(c) the official orchestration per built row, one after another", file=sys.stderr)
    revisions = load_config("sample-sdk", cache)
    c_steps: list[Step] = []
    built = ROWS[:2]
    for row in built:
        tree = worktree_path("tiercheck/sample-sdk", row.split("@")[1], cache / "repos")
        c_steps += official_steps(
            revisions, harness_argv=harness.argv(), sdk_path=tree, out=work / "c" / row
        )
    c = measure("c", 0, c_steps)

    matrix = json.loads((work / "a" / "matrix.json").read_text())
    same_ab, same_ac, compared = True, True, 0
    for row in ROWS:
        a_card = json.loads((work / "a" / "rows" / row / "scorecard.json").read_text())
        b_card = json.loads((work / "b" / row / "scorecard.json").read_text())
        va, vb = row_verdicts(a_card), row_verdicts(b_card)
        same_ab &= va == vb
        compared += len(va)
        if row in built:
            for key in (f"{r.name}/{leg}" for r in revisions for leg in ("server", "client")):
                official = scenario_verdicts(work / "c" / row / key, key.split("/")[1])
                mine = {k.split("/", 2)[2]: v for k, v in va.items() if k.startswith(key + "/")}
                same_ac &= official == mine
    result = {
        "rows": [r["id"] for r in matrix["rows"]],
        "tiers": {r["id"]: (r["tier"] or {}).get("official") for r in matrix["rows"]},
        "a": {"wall_s": a.wall_s, "peak_rss_mb": a.peak_rss_mb, "cpu_s": a.cpu_s},
        "b": {"wall_s": b.wall_s, "peak_rss_mb": b.peak_rss_mb, "cpu_s": b.cpu_s},
        "c": {"wall_s": c.wall_s, "peak_rss_mb": c.peak_rss_mb, "cpu_s": c.cpu_s},
        "wall_a_over_b": ratio(a.wall_s, b.wall_s),
        "wall_a_over_c": ratio(a.wall_s, c.wall_s),
        "rss_a_over_b": ratio(a.peak_rss_mb, b.peak_rss_mb),
        "rss_a_over_c": ratio(a.peak_rss_mb, c.peak_rss_mb),
        "verdicts_identical_a_b": same_ab,
        "verdicts_identical_a_c": same_ac,
        "scenarios_compared": compared,
        "foreign_cpu_s": {"a": a.foreign_cpu_s, "b": b.foreign_cpu_s, "c": c.foreign_cpu_s},
        "cores": os.cpu_count(),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
