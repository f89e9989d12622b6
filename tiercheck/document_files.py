"""The files of tiercheck's documents under `--out`, read back and written atomically: the one
module that writes there.

A saved scorecard, claim or matrix is read back and checked against its schema and its model
(`load_scorecard`, `load_previous`, `load_matrix`); a run's report folder, a claim folder and a
matrix folder are written, every format of each, as the table of formats names them
(`tiercheck.document_formats`); a stored leg's raw results are put back (`--reuse`) and a matrix
row's folder is copied whole. It writes the files of the scorecard, the claim and the matrix, so
it sits above all three documents; `tier-check publish` reads a matrix folder through it, so it
sits below the site and the commands.

Each file is replaced durably through `tiercheck.durable` (a temporary file in the same
directory, fsynced, renamed over the target): a crash or Ctrl-C at any point leaves either the
previous file or the complete new one, never a half-written one.

Order: `scorecard.json` is written **first**. It is the canonical record — every other format
is a pure function of it and can be re-rendered from it, while nothing can rebuild the JSON from
the others. So the measurement is on disk before any derived format gets a chance to fail or be
interrupted; a bug in one renderer costs that one file, not the run. The formats, their order
and their file names come from `document_formats.SCORECARD_FORMATS`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck import durable
from tiercheck.document_formats import MATRIX_FORMATS, SCORECARD_FORMATS
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import scorecard_from_data

if TYPE_CHECKING:
    from tiercheck.claim.model import ClaimDocument
    from tiercheck.claim.pack import Claim
    from tiercheck.matrix.model import Matrix

__all__ = [
    "CLAIM_FILES",
    "atomic_write_text",
    "copy_report_folder",
    "load_matrix",
    "load_previous",
    "load_scorecard",
    "read_text",
    "write_claim",
    "write_leg_results",
    "write_matrix_reports",
    "write_reports",
]


def read_text(path: Path) -> str:
    """The UTF-8 text of a saved report (a scorecard to diff or re-render)."""
    return Path(path).read_text(encoding="utf-8")


def load_scorecard(path: Path) -> Scorecard:
    """A saved scorecard, read and validated.

    Raises a one-line ConfigError when the file cannot be read, is not JSON or breaks the schema.
    """
    from tiercheck.config.safeload import load_json

    # The one safe loader (UTF-8, nesting depth, size), then the schema and the model.
    return scorecard_from_data(load_json(Path(path), what="the scorecard"), str(path))


def load_previous(path: Path) -> ClaimDocument | Scorecard:
    """A previous assessment for `claim --previous`: a saved `claim.json` or `scorecard.json`,
    read, checked against its schema and its model.

    Raises a one-line ConfigError when the file cannot be read, is not JSON, is neither, or
    breaks its schema (a claim.json of schema 1, from an older tiercheck, is refused: its
    scorecard.json can stand in for it).
    """
    from tiercheck.claim.model import CLAIM_SCHEMA_VERSION, ClaimDocument
    from tiercheck.config.safeload import load_json
    from tiercheck.config.validate import validate
    from tiercheck.errors import ConfigError
    from tiercheck.model import ModelError, from_json

    data = load_json(Path(path), what="the previous assessment")
    if isinstance(data, dict) and "checks" in data and "implied_tier" in data:
        return scorecard_from_data(data, str(path))
    if not (isinstance(data, dict) and "rows" in data and "target_tier" in data):
        msg = f"{path}: neither a claim.json nor a scorecard.json"
        raise ConfigError(msg)
    version = data.get("schema_version")
    if version != CLAIM_SCHEMA_VERSION:
        msg = (
            f"{path}: a claim.json of schema {version!r} (this tiercheck reads "
            f"{CLAIM_SCHEMA_VERSION}); pass that assessment's scorecard.json instead"
        )
        raise ConfigError(msg)
    validate(data, "claim", str(path))
    try:
        return from_json(ClaimDocument, data)
    except ModelError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def load_matrix(path: Path) -> Matrix:
    """A saved `matrix.json` (a `--previous`), read, checked against the schema and the model.

    Raises a one-line ConfigError when the file cannot be read, is not JSON or breaks either.
    """
    from tiercheck.config.safeload import load_json
    from tiercheck.config.validate import validate
    from tiercheck.errors import ConfigError
    from tiercheck.matrix.model import Matrix
    from tiercheck.model import ModelError, from_json

    data = load_json(Path(path), what="the matrix")
    validate(data, "matrix", str(path))
    try:
        return from_json(Matrix, data)
    except ModelError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def atomic_write_text(path: Path, text: str) -> Path:
    """Write `text` (UTF-8) to `path` atomically; return `path` (see `tiercheck.durable`)."""
    return durable.write_text(path, text)


def write_leg_results(files: Mapping[str, str], root: Path) -> Path:
    """Write a stored leg's checks.json files under `root`, as the harness laid them out.

    `--reuse` puts a stored run's raw results back in the new run's folder, so the folder holds
    what its scorecard points at. A path that would leave `root` is not ours to write.
    """
    for relative, text in files.items():
        target = (root / relative).resolve()
        if not target.is_relative_to(root.resolve()):
            continue
        durable.write_text(target, text)
    return root


def write_reports(
    doc: Scorecard, out_dir: Path, formats: Iterable[str] | None = None
) -> dict[str, Path]:
    """Render and write each format of `doc` into `out_dir`; return format → path written.

    `formats` defaults to every format of `document_formats.SCORECARD_FORMATS` that has a file,
    seven in
    all: `scorecard.json`, `scorecard.md`, `junit.xml`, `scorecard.txt` (plain text, no colour),
    `scorecard.html`, `badge.svg` and `badge.json`. JSON is written first whatever the order
    asked; each file is rendered completely in memory before its atomic write, so a renderer
    that raises leaves its previous file intact. Raises ValueError for an unknown format (before
    anything is written).
    """
    registry = SCORECARD_FORMATS
    to_write = registry.files()
    if formats is not None:
        wanted = {registry.get(name).name for name in formats}  # an unknown name raises here
        to_write = tuple(f for f in to_write if f.name in wanted)
    out_dir = Path(out_dir)
    written: dict[str, Path] = {}
    for fmt in to_write:
        assert fmt.file_name is not None  # files() holds only formats with one
        # The saved text report is for reading in a file or CI log: never colour codes.
        text = fmt.render(doc, False)
        written[fmt.name] = atomic_write_text(out_dir / fmt.file_name, text)
    return written


#: The files of a claim folder, in writing order.
CLAIM_FILES = (
    "claim.json",
    "assessment.md",
    "remediation.md",
    "claim.html",
    "badge.svg",
    "badge.json",
)


def write_claim(claim: Claim, out_dir: Path) -> list[Path]:
    """Render and write every file of the claim folder atomically; JSON first.

    `assessment.md` is the issue body (under GitHub's 65,536 characters); when it had to leave
    evidence out, `assessment-full.md` beside it holds everything, and a stale one from an
    earlier claim in the same folder is removed so the folder never contradicts its body.
    """
    import json

    from tiercheck.claim.fit import FULL_NAME
    from tiercheck.claim.html import render_claim_html
    from tiercheck.claim.markdown import render_assessment_files, render_remediation
    from tiercheck.claim.pack import claim_to_dict
    from tiercheck.scorecard.render.badge import render_badge_json, render_badge_svg

    assessment = render_assessment_files(claim)
    renderers = {
        "claim.json": lambda: json.dumps(claim_to_dict(claim), indent=2, default=str) + "\n",
        "assessment.md": lambda: assessment["assessment.md"],
        "remediation.md": lambda: render_remediation(claim),
        "claim.html": lambda: render_claim_html(claim),
        "badge.svg": lambda: render_badge_svg(claim.scorecard),
        "badge.json": lambda: render_badge_json(claim.scorecard),
    }
    written = [atomic_write_text(out_dir / name, renderers[name]()) for name in CLAIM_FILES]
    if FULL_NAME in assessment:
        written.append(atomic_write_text(out_dir / FULL_NAME, assessment[FULL_NAME]))
    else:
        (out_dir / FULL_NAME).unlink(missing_ok=True)
    # The SDK's registry entry the reproduce command names (`--registry sdk-registry.yaml`);
    # an earlier claim's copy in the same folder is not this claim's.
    from tiercheck.claim.reproduce import REGISTRY_COPY

    if claim.registry_copy is not None:
        written.append(atomic_write_text(out_dir / REGISTRY_COPY, claim.registry_copy))
    else:
        (out_dir / REGISTRY_COPY).unlink(missing_ok=True)
    return written


def write_matrix_reports(matrix: Matrix, out_dir: Path) -> dict[str, Path]:
    """Every file format of `matrix` into `out_dir` (`matrix.json` first, as for a scorecard)."""
    written: dict[str, Path] = {}
    for fmt in MATRIX_FORMATS.files():
        assert fmt.file_name is not None  # files() holds only formats with one
        written[fmt.name] = atomic_write_text(out_dir / fmt.file_name, fmt.render(matrix, False))
    return written


def copy_report_folder(source: Path, target: Path) -> Path:
    """`source` (a row's scorecard folder, as a job left it) copied to `target`; return it.

    Every regular file is copied, each written durably; a symbolic link inside `source` is
    neither followed nor copied, so nothing outside `source` is read, and a folder that holds
    `target` is not copied into itself. A folder already at `target` is replaced (a link there
    is removed, never followed); `source` and `target` being one folder leaves it as it is.
    """
    import shutil

    source, target = Path(source).resolve(), Path(target)
    if target.resolve() == source:
        return target
    if os.path.islink(target):
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)
    inside = target.resolve()
    target.mkdir(parents=True, exist_ok=True)
    for folder, dirs, files in os.walk(source, followlinks=False):
        here = Path(folder)
        dirs[:] = [
            d
            for d in sorted(dirs)
            if not (here / d).is_symlink() and not inside.is_relative_to(here / d)
        ]
        for name in sorted(files):
            path = here / name
            if path.is_symlink() or not path.is_file():
                continue
            durable.write_bytes(target / path.relative_to(source), path.read_bytes())
        if not files and here != source:
            (target / here.relative_to(source)).mkdir(parents=True, exist_ok=True)
    return target
