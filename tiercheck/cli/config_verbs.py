"""`list`, `requirements` and `show-config`: what tiercheck knows and how it resolves it."""

from __future__ import annotations

import argparse
import os
from typing import Any

from tiercheck.cli.common import (
    add_config_flags,
    config_flags,
    emit,
    known_sdks,
    print_json,
)
from tiercheck.config.requirements import load_requirement_set
from tiercheck.pipeline.assess import options
from tiercheck.revisions import LEGS

__all__ = [
    "list_parser",
    "list_sdks",
    "requirements",
    "requirements_parser",
    "show_config",
    "show_config_parser",
]


def list_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check list [--json] [--registry FILE]`."""
    parser = argparse.ArgumentParser(prog=prog, description="The SDKs tiercheck knows.")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    options.REGISTRY.add_to(parser)
    return parser


def list_sdks(args: argparse.Namespace) -> int:
    """`tier-check list`: the known SDKs with repo, default ref and claimed revisions."""
    registry = known_sdks(args)
    rows: list[dict[str, Any]] = [
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
    lines = []
    for r in rows:
        revisions = ", ".join(r["revisions"])
        ref = "@" + r["default_ref"]
        line = f"{r['name']:<{width}}  {r['repo']:<{repo_width}}  {ref:<7}  {revisions}"
        lines.append(line.rstrip())
    if lines:
        emit("\n".join(lines))
    return 0


def requirements_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check requirements REV [--json]`."""
    parser = argparse.ArgumentParser(
        prog=prog, description="What a spec revision requires, per leg."
    )
    parser.add_argument("revision", metavar="REV")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def requirements(args: argparse.Namespace) -> int:
    """`tier-check requirements REV`: scored and not-scored scenarios per leg."""

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
    emit("\n".join(out))
    return 0


def show_config_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check show-config (--sdk NAME | --sdk-path DIR) [--revision REV] [--json]` and the
    override flags."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "An SDK's resolved configuration per revision, each value with its source, and "
            "what an assessment with the same flags would run. An SDK not in the registry "
            "(--sdk-path DIR alone) is configured by the flags and TIERCHECK_* variables."
        ),
    )
    options.SDK.add_to(parser, help="a known SDK or OWNER/REPO")
    options.SDK_PATH.add_to(parser)
    parser.add_argument(
        "--revision", metavar="REV", help="one revision (default: every claimed one)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_config_flags(parser)
    return parser


def show_config(args: argparse.Namespace) -> int:
    """`tier-check show-config`: resolved values per revision with their sources, and what
    would run (`pipeline.show_config`)."""
    from tiercheck.pipeline.show_config import ShowConfigRequest
    from tiercheck.pipeline.show_config import show_config as resolved

    request = ShowConfigRequest(
        registry=known_sdks(args),
        sdk=args.sdk,
        sdk_path=options.SDK_PATH.held(args),
        revision=args.revision,
        environ=os.environ,
        flags=config_flags(args),
    )
    shown = resolved(request)
    if args.json:
        print_json(shown.to_dict())
    else:
        emit("\n".join(shown.lines()))
    return 0
