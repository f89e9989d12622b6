"""The dashboard's screenshots in docs/images/, from thirty synthetic nights.

    .venv/bin/python examples/dashboard/screenshots.py [OUT]     (default: docs/images)

Builds the dashboard night by night as the nightly does (a fresh history imported from the
data folder, the night's scorecards imported, exported back, the site brought up to date), from
the thirty nights of tests/support/nights.py (alpha-sdk regresses on night 12 and is fixed on
night 15, its server leg is unmeasured on night 20; beta-sdk runs a new harness from night 25),
and photographs with headless Chromium the index as it stood after night 12 (the regression
just opened) and alpha-sdk's page after night 30 (the month behind it), each on a desktop
(1,400 px wide) and on a phone (400 px: `-narrow`). Prints the four paths.

A page is photographed in a frame as wide as the screen, in a page of its own: Chromium's
window is never narrower than 500 px, and `--window-size=400,900` alone would lay the page out
500 px wide and cut the picture (as `tests/support/page_checks.py` measures pages).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The synthetic nights are the tests' own (typed scorecards through the real builders).
sys.path.insert(0, str(REPO / "tests"))

from support.nights import LINES  # noqa: E402
from tiercheck.cli.app import main as tier_check  # noqa: E402
from tiercheck.document_files import write_reports  # noqa: E402

SHOTS = {
    12: ("index.html", "dashboard-index"),
    30: ("lines/alpha-sdk.html", "dashboard-line"),
}
#: (width, the name's suffix), each 900 px high.
WIDTHS = ((1400, ""), (400, "-narrow"))
HEIGHT = 900
_FRAME = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>shot</title></head>'
    '<body style="margin:0"><iframe src="{src}" width="{width}" height="{height}" '
    'style="border:0;display:block" title="the page"></iframe></body></html>'
)


def _run(argv: list[str]) -> None:
    if tier_check(argv) != 0:
        sys.exit(f"tier-check {' '.join(argv)} failed")


def _shoot(page: Path, png: Path, profile: Path, width: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    frame = page.with_name(f".{page.stem}-{width}.frame.html")
    frame.write_text(_FRAME.format(src=page.name, width=width, height=HEIGHT), "utf-8")
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            f"--user-data-dir={profile}",
            f"--window-size={width},{HEIGHT}",
            f"--screenshot={png}",
            frame.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    frame.unlink()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "images"
    with tempfile.TemporaryDirectory(prefix="dashboard-") as tmp:
        root = Path(tmp)
        data, site = root / "data", root / "site"
        for n in range(1, max(SHOTS) + 1):
            jobs = root / f"jobs-{n:02d}"
            for line, make in LINES.items():
                write_reports(make(n), jobs / line, ["json"])
            db = str(root / f"night-{n:02d}.sqlite")
            if data.exists():
                _run(["history", "import", str(data), "--history", db])
            _run(["history", "import", str(jobs), "--history", db])
            _run(["history", "export", "--history", db, "--out", str(data)])
            _run(["publish", "--history", db, "--out", str(site)])
            if n in SHOTS:
                page, name = SHOTS[n]
                for width, suffix in WIDTHS:
                    png = out / f"{name}{suffix}.png"
                    _shoot(site / page, png, root / f"profile-{n}-{width}", width)
                    sys.stdout.write(f"{png}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
