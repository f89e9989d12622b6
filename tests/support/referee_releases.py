"""Two harness releases as recorded for the referee tests, and an alpha.11 tree built by hand.

`tests/support/referee/<version>/` holds, for 0.2.0-alpha.11 and 0.2.0-alpha.12 as the npm
registry publishes them, what `tiercheck.referee.harvest` reads from each installed release
(`Answers.files()`: the version, the requirement sets it ships, its own `list` and `--help`
output, the first request it sends at each set, the checks read from its code per scenario)
and `lock-entry.json`, the lock entry npm writes for the package (version, integrity, its
dependencies). That is all the referee reads of a release; the 0.8 MB bundle itself is not
kept. Regenerate it (npm and the registry; a few minutes on two cores) with

    PYTHONPATH=tests .venv/bin/python -m support.referee_releases [--cache-dir DIR]

which installs each release with tiercheck's own installer (`conformance.harness.provision`)
into a scratch cache, reads it with `harvest`, and rewrites the folder; `git diff` then shows
what a newer tiercheck reads differently.

`tree_pinned_to(root, version)` is a tree (runners/ and requirements/) pinned to another
release, made by hand from this repository's: every mention of today's pin replaced, and the
lock's entry for the harness replaced by the recorded one. The repository was never pinned to
alpha.11; this is what its tree would say if it were (npm itself, moving today's lock to
alpha.11, changes exactly these lines).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tiercheck.referee.bundle import Answers
from tiercheck.referee.tree import PACKAGE, Pin

REPO = Path(__file__).resolve().parents[2]
FOLDER = Path(__file__).resolve().parent / "referee"
RELEASES = ("0.2.0-alpha.11", "0.2.0-alpha.12")
TODAY = "0.2.0-alpha.12"
_ENTRY = f"node_modules/{PACKAGE}"

#: What 0.2.0-alpha.12 changed, written out by hand from its release notes (PR #503) and the two
#: releases' own `list` output: the skills scenarios it adds, per leg (all extensions)...
SKILLS_SERVER = (
    "sep-2640-skills-directory",
    "sep-2640-skills-enumeration",
    "sep-2640-skills-manifest",
)
SKILLS_CLIENT = (
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
)
#: ...and the RFC 8707 `resource` checks its metadata discovery scenarios emit.
RESOURCE_CHECKS = (
    "resource-parameter-consistency",
    "resource-parameter-in-authorization",
    "resource-parameter-in-token",
    "resource-parameter-matches-prm",
    "resource-parameter-valid-uri",
)

__all__ = [
    "FOLDER",
    "RELEASES",
    "RESOURCE_CHECKS",
    "SKILLS_CLIENT",
    "SKILLS_SERVER",
    "TODAY",
    "answers",
    "fake_fetch",
    "lock_entry",
    "tree_pinned_to",
]


def answers(version: str) -> Answers:
    """The recorded answers of `version`."""
    folder = FOLDER / version
    files = {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != "lock-entry.json"
    }
    return Answers.from_files(files)


def lock_entry(version: str) -> dict[str, Any]:
    """The lock entry npm writes for the harness package at `version`."""
    entry: dict[str, Any] = json.loads((FOLDER / version / "lock-entry.json").read_text("utf-8"))
    return entry


def pinned(manifest: str, lock: str, version: str) -> Pin:
    """The pin npm writes when `manifest` and `lock` move to `version` of the harness: the
    manifest's dependency, the lock's root dependency and the package's entry; nothing else
    (its dependencies are the same in every recorded release)."""
    data = json.loads(manifest)
    data["dependencies"][PACKAGE] = version
    locked = json.loads(lock)
    locked["packages"][""]["dependencies"][PACKAGE] = version
    locked["packages"][_ENTRY] = lock_entry(version)
    return Pin(json.dumps(data, indent=2) + "\n", json.dumps(locked, indent=2) + "\n")


def fake_fetch(version: str, runners: Path, scratch: Path, say: Callable[[str], None]) -> Any:
    """`pipeline.referee.fetch_release` for the recorded releases: the recorded answers, and
    the pin npm writes from the tree's runners/ (npm is not run)."""
    from tiercheck.pipeline.referee import Release

    say(f"recorded {version}")
    manifest = (runners / "package.json").read_text(encoding="utf-8")
    lock = (runners / "package-lock.json").read_text(encoding="utf-8")
    return Release(answers(version), pinned(manifest, lock, version))


def tree_pinned_to(root: Path, version: str) -> Path:
    """This repository's runners/ and requirements/ copied to `root`, pinned to `version`."""
    for part in ("runners", "requirements"):
        shutil.copytree(REPO / part, root / part)
    pin = pinned(
        (root / "runners/package.json").read_text("utf-8"),
        (root / "runners/package-lock.json").read_text("utf-8"),
        version,
    )
    (root / "runners/package.json").write_text(pin.manifest, encoding="utf-8")
    (root / "runners/package-lock.json").write_text(pin.lock, encoding="utf-8")
    for path in (root / "requirements").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(TODAY, version), encoding="utf-8")
    return root


def record(cache: Path) -> None:
    """Install, read and write down every release of `RELEASES`."""
    from tiercheck.conformance.harness import provision
    from tiercheck.referee.harvest import harvest

    for version in RELEASES:
        harness = provision(cache, version=version, progress=print)
        install = harness.root.parents[2]
        lock = json.loads((install / "package-lock.json").read_text(encoding="utf-8"))
        folder = FOLDER / version
        shutil.rmtree(folder, ignore_errors=True)
        for rel, text in harvest(harness).files().items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text, encoding="utf-8")
        entry = json.dumps(lock["packages"][_ENTRY], indent=2) + "\n"
        (folder / "lock-entry.json").write_text(entry, encoding="utf-8")
        print(f"recorded {version} in {folder.relative_to(REPO)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", help="where to install the releases (default: scratch)")
    args = parser.parse_args(argv)
    if args.cache_dir:
        record(Path(args.cache_dir))
        return 0
    with tempfile.TemporaryDirectory(prefix="referee-releases-") as scratch:
        record(Path(scratch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
