"""What a run reads of its installed harness, read once per install and kept beside it.

Two facts of the harness bundle go into every scorecard: what its `conformance list --server`,
`--client` and `--authorization` print (each scenario with the spec versions it applies to:
`referee.applicable` reads which ones a revision does not apply), and the digest of each listed
scenario's definition (`referee.definitions`, a scan of the whole bundle: seconds of CPU).
Neither changes while the install does, so both are read the first time a run needs them and
kept in `.tiercheck-record.json` in the harness's cache folder (`Harness.folder`), written
atomically (`tiercheck.durable`); every later run, in any process, reads that file instead.

The record is keyed by the bundle file's size and modification time, the harness version, the
record's format and tiercheck's version: one that is missing, unreadable, malformed, of another
key (foreign), or reached through a link is not read but made again, and none of it ever fails
a run (what cannot be read is left out of the scorecard). It is written only inside the
harness's own cache folder, as a regular file of that folder (a link there is replaced, never
followed), and only when the server and client legs were both listed.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import stat
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tiercheck import __version__, process
from tiercheck.config.safeload import read_text
from tiercheck.conformance.harness import Harness
from tiercheck.durable import write_text
from tiercheck.errors import ConfigError, ProcessError
from tiercheck.paths import inside
from tiercheck.referee.bundle import LISTED_LEGS, Answers, read_bundle
from tiercheck.referee.definitions import definitions
from tiercheck.revisions import LEGS

__all__ = ["RECORD_NAME", "HarnessRecord", "clear_memory", "harness_record", "list_source"]

#: The record's file name in the harness's cache folder.
RECORD_NAME: Final = ".tiercheck-record.json"
#: The record's format: a record of another format is made again.
FORMAT: Final = 1
#: Seconds one `conformance list` may take.
LIST_TIMEOUT_S: Final = 60.0
#: The most of a record read (a record of the 0.2 harness is a few kB).
_MAX_BYTES: Final = 4 * 1024 * 1024
_NAME = re.compile(r"[a-z0-9][a-z0-9_./-]*")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def list_source(version: str, leg: str) -> str:
    """Where the versions of a leg's scenarios are read: `harness 0.2.0-alpha.12: conformance
    list --server`."""
    return f"harness {version}: conformance list --{leg}"


@dataclass(frozen=True)
class HarnessRecord:
    """What a run reads of one installed harness."""

    version: str
    #: Leg → scenario → the versions `list` shows in brackets (`extension`, or dates), in the
    #: order the harness lists them; a leg whose `list` failed is absent.
    listed: Mapping[str, Mapping[str, tuple[str, ...]]]
    #: Scenario → the digest of its definition, for every listed scenario whose checks were read.
    definitions: Mapping[str, str]

    @property
    def complete(self) -> bool:
        """Whether the legs a run assesses were listed (only such a record is kept)."""
        return all(leg in self.listed for leg in LEGS)


def _key(version: str, size: int, mtime_ns: int) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "tiercheck": __version__,
        "harness": version,
        "bundle": {"size": size, "mtime_ns": mtime_ns},
    }


def _to_json(key: Mapping[str, Any], record: HarnessRecord) -> str:
    data = {
        **key,
        "listed": {
            leg: {name: list(applies) for name, applies in scenarios.items()}
            for leg, scenarios in record.listed.items()
        },
        "definitions": dict(sorted(record.definitions.items())),
    }
    return json.dumps(data, indent=1, ensure_ascii=True) + "\n"


def _names(value: object) -> dict[str, tuple[str, ...]] | None:
    if not isinstance(value, dict):
        return None
    out: dict[str, tuple[str, ...]] = {}
    for name, applies in value.items():
        if not (_NAME.fullmatch(name) and isinstance(applies, list)):
            return None
        if not all(isinstance(v, str) and _VERSION.fullmatch(v) for v in applies):
            return None
        out[name] = tuple(applies)
    return out


def _from_json(data: object, key: Mapping[str, Any], version: str) -> HarnessRecord | None:
    """The record `data` holds, when it is one of `key` and well formed; else None."""
    if not isinstance(data, dict) or any(data.get(k) != v for k, v in key.items()):
        return None
    raw_listed, raw_definitions = data.get("listed"), data.get("definitions")
    if not isinstance(raw_listed, dict) or not set(LEGS) <= set(raw_listed) <= set(LISTED_LEGS):
        return None
    listed = {leg: _names(raw_listed[leg]) for leg in LISTED_LEGS if leg in raw_listed}
    if not isinstance(raw_definitions, dict) or any(v is None for v in listed.values()):
        return None
    found = {
        name: digest
        for name, digest in raw_definitions.items()
        if _NAME.fullmatch(name) and isinstance(digest, str) and re.fullmatch("[0-9a-f]+", digest)
    }
    if len(found) != len(raw_definitions):
        return None
    return HarnessRecord(
        version, {leg: v for leg, v in listed.items() if v is not None}, dict(sorted(found.items()))
    )


def _confined(folder: Path) -> Path | None:
    """The record's path in `folder`, unless it is a link or leads out of the folder."""
    path = folder / RECORD_NAME
    try:
        root = folder.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if path.is_symlink() or not inside(root, path):
        return None
    return path


def _read(folder: Path, key: Mapping[str, Any], version: str) -> HarnessRecord | None:
    path = _confined(folder)
    if path is None:
        return None
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None  # a FIFO or a device is no record
            raw = handle.read(_MAX_BYTES + 1)
        if len(raw) > _MAX_BYTES:
            return None
        return _from_json(json.loads(raw.decode("utf-8")), key, version)
    except (OSError, ValueError, RecursionError):
        return None


def _write(folder: Path, key: Mapping[str, Any], record: HarnessRecord) -> None:
    # A link at the record's name is renamed over (`os.replace`), never written through; a
    # cache that cannot be written leaves the next run to read the bundle again.
    with contextlib.suppress(OSError):
        write_text(folder / RECORD_NAME, _to_json(key, record), mode=0o644)


def _list(harness: Harness, leg: str) -> str | None:
    """What `conformance list --LEG` printed, or None when it failed."""
    try:
        result = process.capture(
            harness.argv("list", f"--{leg}"),
            env=process.sdk_environment({}),
            timeout_s=LIST_TIMEOUT_S,
        )
    except (ProcessError, OSError):
        return None
    return result.stdout if result.returncode == 0 else None


def _scan(harness: Harness, names: list[str]) -> dict[str, str]:
    try:
        source = read_text(harness.cli_js, what="the harness bundle")
        return definitions(source, names)
    except (ConfigError, OSError, ValueError, RecursionError):
        return {}


def _compute(harness: Harness) -> HarnessRecord:
    """The bundle's listing (its CLI asked, all legs at once) and every listed scenario's
    definition digest (one scan of the bundle)."""
    with ThreadPoolExecutor(max_workers=len(LISTED_LEGS), thread_name_prefix="record") as pool:
        jobs = {leg: pool.submit(_list, harness, leg) for leg in LISTED_LEGS}
        texts: dict[str, str] = {
            leg: text for leg, job in jobs.items() if (text := job.result()) is not None
        }
    reading = read_bundle(Answers(harness.version, listings=texts))
    listed: dict[str, dict[str, tuple[str, ...]]] = {
        leg: {name: s.applies for name, s in reading.scenarios[leg].items()}
        for leg in LISTED_LEGS
        if leg in reading.scenarios
    }
    names = list(dict.fromkeys(name for leg in listed.values() for name in leg))
    return HarnessRecord(harness.version, listed, _scan(harness, names) if names else {})


def harness_record(harness: Harness) -> HarnessRecord | None:
    """The record of `harness`: read from its cache folder when one of this install is there,
    else made (and kept there when complete); None when the bundle cannot be found. Never
    raises for the record."""
    try:
        found = harness.cli_js.stat()
    except OSError:
        return None
    return _record(harness, found.st_size, found.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _record(harness: Harness, size: int, mtime_ns: int) -> HarnessRecord:
    """Once per install, bundle and process (a matrix assesses many lines under one harness)."""
    folder = harness.folder()
    key = _key(harness.version, size, mtime_ns)
    if folder is not None:
        kept = _read(folder, key, harness.version)
        if kept is not None:
            return kept
    made = _compute(harness)
    if folder is not None and made.complete:
        _write(folder, key, made)
    return made


def clear_memory() -> None:
    """Forget what this process read (as a new process would)."""
    _record.cache_clear()
