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


# --- what a row says of its folder ---------------------------------------------------------

_FILE_OR_FOLDER = re.compile(r"^[a-z_][a-z0-9_]*(\.py|/)$")


def layout_table(readme: str) -> list[tuple[str, str]]:
    """(first cell, second cell) of each row of the table under `## Layout`."""
    section = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [(row.split("|")[1].strip(), row.split("|")[2].strip()) for row in rows[1:]]


def stale_names(readme: str, root: Path) -> list[str]:
    """Every module or folder a folder's row names in its description (`run.py`, `infer/`) that
    is nowhere under that folder nor at the top of the package; and every package under
    `tiercheck/` that no row names, by its own row or in its parent's description."""
    stale: list[str] = []
    described: set[Path] = set()
    for first, what in layout_table(readme):
        for folder in _CODE.findall(first):
            if not (folder.startswith("tiercheck/") and folder.endswith("/")):
                continue
            base = root / folder
            described.add(base)
            for name in _CODE.findall(what):
                if not _FILE_OR_FOLDER.match(name):
                    continue
                if f"`{name}`" in first:
                    continue  # a neighbour the first cell names itself
                found = [p for p in base.rglob(name.rstrip("/")) if "__pycache__" not in p.parts]
                found = found or [p for p in [root / "tiercheck" / name.rstrip("/")] if p.exists()]
                if not found:
                    stale.append(f"{folder}{name}")
                elif name.endswith("/"):
                    described.update(p for p in found if p.is_dir())
    for package in sorted((root / "tiercheck").rglob("__init__.py")):
        folder = package.parent
        # A top-level package has its own row (the tests above); a package one floor below a
        # described folder is named in that folder's row or has a row of its own.
        if folder not in described and folder.parent in described:
            stale.append(f"{folder.relative_to(root)}/ (no row names it)")
    return stale


def test_every_module_a_row_names_is_there_and_every_package_is_named() -> None:
    assert stale_names((REPO / "README.md").read_text(encoding="utf-8"), REPO) == []


def test_a_renamed_module_and_an_unnamed_package_are_found(tmp_path: Path) -> None:
    for path in ("tiercheck/pipeline/assess", "tiercheck/pipeline/matrix", "tiercheck/sdk"):
        (tmp_path / path).mkdir(parents=True)
        (tmp_path / path / "__init__.py").write_text("")
    (tmp_path / "tiercheck" / "__init__.py").write_text("")
    (tmp_path / "tiercheck/pipeline/__init__.py").write_text("")
    (tmp_path / "tiercheck/pipeline/run.py").write_text("")
    (tmp_path / "tiercheck/pipeline/assess/legs.py").write_text("")
    readme = (
        "intro\n\n## Layout\n\n| path | what |\n|---|---|\n"
        "| `tiercheck/pipeline/` | the commands (`run.py`, `gone.py`) |\n"
        "| `tiercheck/pipeline/assess/` | the steps (`legs.py`) |\n"
        "| `tiercheck/sdk/` | checkout |\n"
    )
    assert stale_names(readme, tmp_path) == [
        "tiercheck/pipeline/gone.py",
        "tiercheck/pipeline/matrix/ (no row names it)",
    ]
