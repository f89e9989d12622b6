"""The matrix file (`tier-check matrix --matrix FILE`): rows of SDK lines, refs and options.

Read through `safeload` like every other file and validated against
`tiercheck/schemas/matrix_file.schema.json`; a mistake is one line naming the file and the
path inside it. Relative paths in a row (a snapshot) are relative to the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError

__all__ = ["RowRequest", "load_matrix_file"]


@dataclass(frozen=True)
class RowRequest:
    """A row as asked for: `--sdk NAME[@REF]` or one row of a matrix file."""

    sdk: str
    ref: str | None = None
    git_url: str | None = None
    revisions: tuple[str, ...] | None = None
    claimed_tier: int | None = None
    governance_snapshot: Path | None = None


def load_matrix_file(path: Path) -> tuple[RowRequest, ...]:
    """The rows of the matrix file at `path`, in order (ConfigError, exit 2, when it is wrong)."""
    raw = load_yaml(path)
    if raw is None:
        msg = f"{path}: empty; a matrix file needs `rows:`, a list of `{{sdk: NAME, ref: REF}}`"
        raise ConfigError(msg)
    validate(raw, "matrix_file", str(path))
    assert isinstance(raw, dict)  # the schema says so
    rows = []
    for item in raw["rows"]:
        snapshot = item.get("governance_snapshot")
        rows.append(
            RowRequest(
                sdk=item["sdk"],
                ref=item.get("ref"),
                git_url=item.get("git_url"),
                revisions=tuple(item["revisions"]) if "revisions" in item else None,
                claimed_tier=item.get("claimed_tier"),
                # Relative to the file, and absolute: a row runs in a process of its own.
                governance_snapshot=(path.parent / snapshot).resolve() if snapshot else None,
            )
        )
    return tuple(rows)
