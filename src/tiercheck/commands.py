"""The body of each `tier-check` command: options in, exit code out.

Each function wires the layers (config, sdk, conformance, governance, report) for one command;
none computes a verdict itself. Heavy modules are imported inside the function that needs them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from tiercheck.errors import UsageError

__all__ = ["list_sdks", "requirements", "show_config"]

_CONFIG_FLAGS = (
    "--build-cmd",
    "--server-cmd",
    "--server-url",
    "--client-cmd",
    "--expected-failures",
    "--ready-timeout",
    "--client-timeout",
)


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration-override flags as the cascade expects them ({flag: value or None})."""
    return {flag: getattr(args, flag[2:].replace("-", "_"), None) for flag in _CONFIG_FLAGS}


def _registry(args: argparse.Namespace) -> Any:
    from tiercheck.config.registry import load_registry

    path = getattr(args, "registry", None) or os.environ.get("TIERCHECK_REGISTRY")
    return load_registry(Path(path) if path else None)


def list_sdks(args: argparse.Namespace) -> int:
    """`tier-check list`: the known SDKs with repo, default ref and claimed revisions."""
    from tiercheck.cli import print_json

    registry = _registry(args)
    rows = [
        {
            "name": e.name,
            "repo": e.repo,
            "default_ref": e.default_ref,
            "revisions": list(e.revisions),
        }
        for e in registry.entries.values()
    ]
    if args.json:
        print_json(rows)
        return 0
    width = max(len(r["name"]) for r in rows) if rows else 4
    repo_width = max(len(r["repo"]) for r in rows) if rows else 4
    for r in rows:
        revisions = ", ".join(r["revisions"])
        ref = "@" + r["default_ref"]
        line = f"{r['name']:<{width}}  {r['repo']:<{repo_width}}  {ref:<7}  {revisions}"
        sys.stdout.write(line.rstrip() + "\n")
    return 0


def requirements(args: argparse.Namespace) -> int:
    """`tier-check requirements REV`: scored and not-scored scenarios per leg."""
    from tiercheck.cli import print_json
    from tiercheck.config.requirements import load_requirement_set
    from tiercheck.revisions import LEGS

    rset = load_requirement_set(args.revision)
    data: dict[str, Any] = {"revision": rset.revision}
    for leg in LEGS:
        not_scored = rset.not_scored_on(leg)
        data[leg] = {
            "scored": list(rset.scored(leg)),
            "scored_count": len(rset.scored(leg)),
            "not_scored": [
                {"scenario": e.scenario, "reason": e.reason, "note": e.note}
                for e in not_scored.values()
            ],
            "not_scored_count": len(not_scored),
        }
    if args.json:
        print_json(data)
        return 0
    out = [f"Requirement set {rset.revision}"]
    for leg in LEGS:
        block = data[leg]
        out.append("")
        out.append(f"{leg}: {block['scored_count']} scored, {block['not_scored_count']} not scored")
        out.extend(f"  {name}" for name in block["scored"])
        if block["not_scored"]:
            out.append("  not scored:")
            for e in block["not_scored"]:
                note = f" — {e['note']}" if e["note"] else ""
                out.append(f"    {e['scenario']}  [{e['reason']}]{note}")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def show_config(args: argparse.Namespace) -> int:
    """`tier-check show-config --sdk NAME`: resolved values per revision with their sources."""
    from tiercheck.cli import print_json
    from tiercheck.config.resolve import resolve
    from tiercheck.revisions import is_known_revision

    registry = _registry(args)
    entry = registry.get(args.sdk)
    revisions = list(entry.revisions)
    if args.revision:
        if not is_known_revision(args.revision):
            msg = f"--revision: {args.revision!r} is not a known spec revision"
            raise UsageError(msg)
        if args.revision not in entry.revisions:
            msg = f"--revision: {entry.name} claims only {', '.join(entry.revisions)}"
            raise UsageError(msg)
        revisions = [args.revision]
    flags = config_flags(args)
    resolved = [resolve(entry, rev, environ=os.environ, flags=flags) for rev in revisions]
    if args.json:
        payload = {
            "sdk": entry.name,
            "repo": entry.repo,
            "default_ref": entry.default_ref,
            "revisions": {c.revision: c.to_dict() for c in resolved},
        }
        print_json(payload)
        return 0
    lines = [f"{entry.name} ({entry.repo} @{entry.default_ref})"]
    for config in resolved:
        lines.append("")
        lines.append(f"revision {config.revision}")
        for key, item in config.to_dict().items():
            lines.append(f"  {key:<22} {item['value']!r}")
            lines.append(f"  {'':<22}   from {item['source']}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
