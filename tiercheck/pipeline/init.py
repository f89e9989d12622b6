"""`tier-check init`: the registry entry an SDK checkout supports, printed or put into a file.

`InitRequest` → `init` → `InitOutcome`. The repository is read inside its folder only
(`sdk.infer.read`); the entry is inferred by the pure core (`sdk.infer.entry`) and written as
YAML by the dumper (`sdk.infer.registry_text`). With `write`, the entry is added to the file, or
put in place of the entry of its name, the rest of the file kept as it was; the file is made
when missing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from tiercheck import durable
from tiercheck.config.safeload import read_text
from tiercheck.errors import UsageError
from tiercheck.sdk.infer.entry import NAME_PATTERN, InferredEntry, infer_entry
from tiercheck.sdk.infer.pins import read_harness_pins
from tiercheck.sdk.infer.read import gather
from tiercheck.sdk.infer.registry_text import entry_text, put_entry

__all__ = ["InitOutcome", "InitRequest", "init"]


@dataclass(frozen=True)
class InitRequest:
    """`tier-check init [DIR] [--name NAME] [--write FILE]`."""

    directory: Path
    name: str | None = None
    write: Path | None = None


@dataclass(frozen=True)
class InitOutcome:
    """The entry, its text, where it was written (None: printed only) and whether it replaced
    an entry of its name, and a note per file of the checkout that was not read."""

    entry: InferredEntry
    text: str
    written: Path | None = None
    replaced: bool = False
    notes: tuple[str, ...] = ()


def init(request: InitRequest) -> InitOutcome:
    """Read the checkout, infer its entry, and write it when asked.

    Bad input is a UsageError: a DIR that is not a folder, a NAME known_sdks.yaml cannot hold,
    or `write` for an entry without `repo` (known_sdks.yaml requires it, and a file holding an
    entry that does not load would stop every command that reads it)."""
    directory = request.directory
    if not directory.is_dir():
        raise UsageError(f"init: {directory} is not a folder")
    if request.name is not None and not NAME_PATTERN.match(request.name):
        msg = (
            f"--name {request.name!r}: letters, digits, '.', '_' and '-' only, "
            "a letter or digit first"
        )
        raise UsageError(msg)
    facts, notes = gather(directory)
    pins, pin_notes = read_harness_pins(directory)
    entry = _with_ci_harness(infer_entry(facts, request.name), pins)
    notes = (*notes, *pin_notes)
    if request.write is None:
        return InitOutcome(entry, entry_text(entry), notes=notes)
    if "repo" not in entry.body:
        msg = (
            f"--write {request.write}: the entry has no repo ({dict(entry.reasons)['repo']}); "
            "add a GitHub origin (git remote add origin https://github.com/OWNER/NAME) or write "
            "the printed entry by hand with its repo"
        )
        raise UsageError(msg)
    target = request.write
    existing = read_text(target) if target.exists() else None
    text, replaced = put_entry(existing, entry, str(target))
    durable.write_text(target, text)
    return InitOutcome(entry, entry_text(entry), target, replaced, notes)


def _with_ci_harness(entry: InferredEntry, pins: tuple[tuple[str, str], ...]) -> InferredEntry:
    """The entry with `ci_harness`, the harness versions the checkout's CI pins (none read:
    the entry as it was)."""
    if not pins:
        return entry
    return replace(entry, body={**entry.body, "ci_harness": [version for version, _ in pins]})
