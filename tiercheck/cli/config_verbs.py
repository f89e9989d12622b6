"""`list`, `requirements` and `show-config`: what tiercheck knows and how it resolves it."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
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
from tiercheck.process import withheld as withheld_env
from tiercheck.revisions import LEGS
from tiercheck.target import resolve_target

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
    would run."""
    from tiercheck.pipeline.assess.preview import preview_target

    registry = known_sdks(args)
    # The forms the assessment accepts: NAME, OWNER/REPO (configured by the entry named like
    # the repository), either with @REF, and a checkout (`--sdk-path`).
    target = resolve_target(
        registry,
        sdk=args.sdk,
        sdk_path=Path(args.sdk_path) if args.sdk_path else None,
        repo=None,
    )
    entry = target.entry
    plan = preview_target(
        target, environ=os.environ, flags=config_flags(args), revision=args.revision
    )
    resolved, previews = plan.configs, plan.previews
    # Names only: a value is never printed, not even to say which shape gave it away.
    withheld = {c.revision: withheld_env(allow=c.pass_env) for c in resolved}
    hint = f"nothing would run (exit 3): {plan.reason}"
    if args.json:
        payload = {
            "sdk": target.name,
            "repo": target.repo,
            "default_ref": entry.default_ref if entry else None,
            "registered": entry is not None,
            "path": str(target.path) if target.path else None,
            "revisions": {c.revision: c.to_dict() for c in resolved},
            "would_run": {p.revision: p.to_dict() for p in previews},
            "withheld_env": withheld,
        }
        if plan.nothing_would_run:
            payload["nothing_would_run"] = hint
        print_json(payload)
        return 0
    if entry is not None:
        lines = [f"{entry.name} ({entry.repo} @{entry.default_ref}; {entry.source})"]
    else:
        lines = [
            f"{target.name} ({target.repo}): not in the registry, configured by flags and "
            "TIERCHECK_* variables alone"
        ]
    # One column for the names, as wide as the widest (`expected_failures.server`).
    width = max(len("withheld from the SDK"), *(len(k) for c in resolved for k in c.values))
    for config, preview in zip(resolved, previews, strict=True):
        lines.append("")
        lines.append(f"revision {config.revision}")
        for key, item in config.to_dict().items():
            lines.append(f"  {key:<{width}} {item['value']!r}")
            lines.append(f"  {'':<{width}}   from {item['source']}")
        names = withheld[config.revision]
        shown = ", ".join(names) if names else "nothing"
        lines.append(f"  {'withheld from the SDK':<{width}} {shown}")
        why = "your environment, secret by name or value (pass_env lets one through)"
        lines.append(f"  {'':<{width}}   {why}")
        lines.append("  would run:")
        lines.extend(f"    {line}" for line in preview.lines())
    if plan.nothing_would_run:
        lines += ["", hint]
    emit("\n".join(lines))
    return 0
