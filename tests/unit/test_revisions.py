"""The spec revisions are spelled in one module: `tiercheck/revisions.py`.

A code-reading test: every string literal of the package's code (docstrings and comments aside)
is read, and one that is a revision, or that lists revisions (two or more side by side: "one of
2025-11-25, 2026-07-28"), is reported. A sentence citing what a revision says ("a SHOULD at
2026-07-28", "2026-07-28: servers MUST …; 2025-11-25: …") is text about that revision, not the
list of revisions, and is left alone.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tiercheck.revisions import (
    KNOWN_REVISIONS,
    STATEFUL_REVISION,
    STATELESS_REVISION,
    is_known_revision,
    unknown_revision,
)

PACKAGE = Path(__file__).resolve().parents[2] / "tiercheck"

#: Modules that may spell a revision, and why.
EXEMPT = {
    # The one place.
    "revisions.py": "the list itself",
}


_ONE = "|".join(re.escape(r) for r in KNOWN_REVISIONS)
#: Two or more revisions with nothing but a separator between them.
_LISTED = re.compile(rf"(?:{_ONE})(?:\s*(?:,|/|\||\band\b|\bor\b)\s*(?:{_ONE}))+")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def spelled_revisions(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string literal of `source`'s code that is a known revision or lists
    revisions."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in docstrings:
            continue
        if node.value in KNOWN_REVISIONS or _LISTED.search(node.value):
            found.append((node.lineno, node.value))
    return sorted(found)


def scan(package: Path) -> dict[str, str]:
    """`module:line` → text of each revision spelled in `package` outside `EXEMPT`."""
    return {
        f"{path.relative_to(package).as_posix()}:{line}": text
        for path in sorted(package.rglob("*.py"))
        if path.relative_to(package).as_posix() not in EXEMPT
        for line, text in spelled_revisions(path.read_text(encoding="utf-8"))
    }


def test_no_module_but_revisions_spells_a_revision() -> None:
    assert scan(PACKAGE) == {}


def test_the_scan_finds_a_module_that_spells_one(tmp_path: Path) -> None:
    (tmp_path / "probes").mkdir()
    (tmp_path / "revisions.py").write_text('KNOWN = ("2025-11-25", "2026-07-28")\n')
    (tmp_path / "probes" / "base.py").write_text('"""At 2026-07-28."""\n\nMODERN = "2026-07-28"\n')
    assert scan(tmp_path) == {"probes/base.py:3": "2026-07-28"}


def test_the_check_finds_a_planted_revision() -> None:
    source = '''"""A docstring may cite 2025-11-25 and 2026-07-28."""

REVISIONS = ("2025-11-25", "2026-07-28")
MODERN = "2026-07-28"


def message(bad: str) -> str:
    """Another docstring: 2026-07-28."""
    note = "a SHOULD at 2026-07-28"  # one revision cited in a sentence: fine
    both = "2026-07-28: a MUST; 2025-11-25: a SHOULD"  # what each says: fine
    return f"{bad!r} is not one of 2025-11-25, 2026-07-28" or "2025-11-25 or 2026-07-28"
'''
    assert spelled_revisions(source) == [
        (3, "2025-11-25"),
        (3, "2026-07-28"),
        (4, "2026-07-28"),
        (11, " is not one of 2025-11-25, 2026-07-28"),
        (11, "2025-11-25 or 2026-07-28"),
    ]


def test_the_exempt_modules_exist() -> None:
    assert all((PACKAGE / name).is_file() for name in EXEMPT)


def test_the_list_is_the_two_wires_oldest_first() -> None:
    assert KNOWN_REVISIONS == (STATEFUL_REVISION, STATELESS_REVISION)
    assert (STATEFUL_REVISION, STATELESS_REVISION) == ("2025-11-25", "2026-07-28")
    assert is_known_revision("2026-07-28")
    assert not is_known_revision("2026-07-29")
    assert unknown_revision(20261125) == (
        "20261125 is not a known spec revision; use one of 2025-11-25, 2026-07-28"
    )
