"""What the advisory probes add to an assessment of the sample SDK (measured, not asserted).

    .venv/bin/python bench/probes.py --sdk-path DIR [--runs 2] [--json bench/results/probes.json]

Alternates `tier-check --sdk-path DIR --sdk sample-sdk --skip-governance --skip-build` with
`--probes all` and with `--probes none`, `--runs` times each, and reports per run the wall time
and the scorecard's own `timings["probes <revision>"]` (the time spent probing while each
revision's server was up). DIR must already be built (`--skip-build`): a copy of
examples/sample-sdk with its `.venv`. The difference of the medians is the probes' cost; the
`timings` figures are the direct measurement, free of the noise of the rest of the run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def one_run(sdk_path: str, probes: str) -> dict[str, Any]:
    """One assessment; its wall time and the probe timings of its scorecard."""
    with tempfile.TemporaryDirectory(prefix="bench-probes-") as tmp:
        out = Path(tmp) / "report"
        argv = [sys.executable, "-m", "tiercheck", "--sdk-path", sdk_path, "--sdk", "sample-sdk"]
        argv += ["--skip-governance", "--skip-build", "--probes", probes, "--out", str(out)]
        began = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        wall = time.monotonic() - began
        doc = json.loads((out / "scorecard.json").read_text())
    timings = {k: v for k, v in doc["timings"].items() if k.startswith("probes ")}
    return {"probes": probes, "exit": done.returncode, "wall_s": round(wall, 2), **timings}


def main() -> int:
    """Alternate the two sides and print the runs and the medians as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sdk-path", required=True)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    runs = [one_run(args.sdk_path, side) for _ in range(args.runs) for side in ("all", "none")]
    median = {
        side: statistics.median(r["wall_s"] for r in runs if r["probes"] == side)
        for side in ("all", "none")
    }
    probing = [sum(v for k, v in r.items() if k.startswith("probes ")) for r in runs]
    result = {
        "runs": runs,
        "median_wall_s": median,
        "added_wall_s": round(median["all"] - median["none"], 2),
        "probe_time_s": max(probing),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
