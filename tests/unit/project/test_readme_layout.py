"""The README's layout table names every package, module and data folder at the top of tiercheck/.

A cell of the table's first column names paths in backticks: `tiercheck/NAME` in full, and
after one of those the bare names of its neighbours (`tiercheck/errors.py`, `paths.py`). The
package's own `__init__.py` and `__main__.py` are `tiercheck/` itself.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "tiercheck"
_CODE = re.compile(r"`([^`]+)`")


def layout_rows(readme: str) -> list[str]:
    """The first cell of each row of the table under `## Layout`."""
    section = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [row.split("|")[1].strip() for row in rows[1:]]


def named_in_layout(readme: str) -> set[str]:
    """Every top-level entry of tiercheck/ a row names (`cli`, `errors.py`, `schemas`)."""
    named: set[str] = set()
    for cell in layout_rows(readme):
        inside = False
        for path in _CODE.findall(cell):
            if path.startswith("tiercheck/"):
                inside = True
            elif not inside:
                continue
            top = path.removeprefix("tiercheck/").strip("/").split("/")[0]
            if top:
                named.add(top)
    return named


def top_level_entries() -> set[str]:
    """The packages, modules and data folders directly under tiercheck/."""
    entries = set()
    for entry in PACKAGE.iterdir():
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.is_dir() or (entry.suffix == ".py" and entry.name not in _PACKAGE_ITSELF):
            entries.add(entry.name)
    return entries


_PACKAGE_ITSELF = {"__init__.py", "__main__.py"}


def test_the_layout_table_names_every_top_level_module_and_package() -> None:
    named = named_in_layout((REPO / "README.md").read_text(encoding="utf-8"))
    missing = sorted(top_level_entries() - named)
    assert missing == [], "README.md's layout table has no row for " + ", ".join(
        f"tiercheck/{name}" for name in missing
    )


def test_the_layout_table_names_nothing_that_is_not_there() -> None:
    named = named_in_layout((REPO / "README.md").read_text(encoding="utf-8"))
    assert sorted(named - top_level_entries()) == []


def test_a_module_missing_from_the_table_is_found() -> None:
    readme = (
        "intro\n\n## Layout\n\n| path | what |\n|---|---|\n"
        "| `tiercheck/cli/` | the commands |\n| `tiercheck/errors.py`, `paths.py` | x |\n"
        "| `action.yml`, `action/` | not ours |\n\n## Next\n\n| `tiercheck/tier.py` | no |\n"
    )
    assert named_in_layout(readme) == {"cli", "errors.py", "paths.py"}
