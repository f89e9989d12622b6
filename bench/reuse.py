"""`--reuse` against a cold run of the same commit of the sample SDK.

    .venv/bin/python bench/reuse.py [--json bench/results/reuse.json] [--revision REV]

Copies `examples/sample-sdk` into a fresh git repository (one commit, so nothing is cached for
it yet), then runs, with a history database of its own:

1. cold: `tier-check --sdk-path COPY --sdk sample-sdk --governance-snapshot S --out A` —
   build, both revisions, both legs, appended to the history;
2. reuse: the same command with `--reuse --out B` — the checkout, then the stored verdicts
   scored again, governance judged fresh.

It reports each wall time, the ratio, and whether every (revision, leg, scenario) verdict is
identical. It is a measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "examples" / "sample-sdk"
SNAPSHOT = SAMPLE / "governance-snapshot.json"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _verdicts(out: Path) -> dict[str, bool]:
    doc = json.loads((out / "scorecard.json").read_text())
    found: dict[str, bool] = {}
    for rev, entry in doc["revisions"].items():
        for leg in ("server", "client"):
            for d in entry[leg].get("details", []):
                found[f"{rev}/{leg}/{d['scenario']}"] = d["passed"]
    return found


def _run(argv: list[str]) -> tuple[float, int, str]:
    began = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    return time.monotonic() - began, done.returncode, done.stderr


def main() -> int:
    """Run cold, then --reuse, and print the figures (and write them with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--revision", action="append")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tiercheck-reuse-bench-") as tmp:
        root = Path(tmp)
        copy = root / "sample-sdk"
        shutil.copytree(SAMPLE, copy, ignore=shutil.ignore_patterns(".venv", "__pycache__"))
        _git(copy, "init", "-q")
        _git(copy, "add", "-A")
        _git(copy, "commit", "-qm", "sample")
        base = [
            sys.executable,
            "-m",
            "tiercheck",
            "--sdk-path",
            str(copy),
            "--sdk",
            "sample-sdk",
            "--governance-snapshot",
            str(SNAPSHOT),
            "--history",
            str(root / "history.sqlite"),
        ]
        for rev in args.revision or ():
            base += ["--revision", rev]
        cold_s, cold_rc, cold_err = _run([*base, "--out", str(root / "cold")])
        reuse_s, reuse_rc, reuse_err = _run([*base, "--reuse", "--out", str(root / "reuse")])
        reused = json.loads((root / "reuse" / "scorecard.json").read_text())
        cold_v, reuse_v = _verdicts(root / "cold"), _verdicts(root / "reuse")
        result: dict[str, Any] = {
            "cold_wall_s": round(cold_s, 2),
            "reuse_wall_s": round(reuse_s, 2),
            "ratio": round(reuse_s / cold_s, 4),
            "exit_codes": [cold_rc, reuse_rc],
            "reused_from": (reused.get("history") or {}).get("reused_from"),
            "scenarios": len(cold_v),
            "identical_verdicts": cold_v == reuse_v,
        }
        if cold_rc not in (0, 1) or reuse_rc not in (0, 1):
            result["stderr"] = [cold_err[-2000:], reuse_err[-2000:]]
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
