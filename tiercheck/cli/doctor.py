"""`tier-check doctor [--sdk NAME | --sdk-path DIR] [--output json]`: which SDK lines this
machine can run, and the harness tiercheck runs. With `--sdk-path DIR` (and the configuration
flags), the one row of that checkout and what an assessment would run at each revision.

`--output json` is one object: `rows` (one per SDK line, as the text's rows) and `harness` (the
text's harness facts), and with `--sdk-path` `would_run` (revision → what would run).
The rows keep the shape they had as the whole document's list; the harness facts belong to no
line, so they sit beside the rows rather than among them."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiercheck.cli.common import (
    add_config_flags,
    cache_dir,
    config_flags,
    emit,
    known_sdks,
    print_json,
)
from tiercheck.config.resolve import resolve
from tiercheck.pipeline.doctor import diagnose, harness_facts
from tiercheck.pipeline.preview import RunPreview, nothing_would_run, preview_run
from tiercheck.revisions import known_revisions
from tiercheck.target import resolve_target

if TYPE_CHECKING:
    from tiercheck.config.registry import Registry

__all__ = ["doctor", "doctor_parser"]


def doctor_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check doctor [--sdk NAME] [--sdk-path DIR] [--output text|json] [--registry FILE]`
    and the configuration flags."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "One row per known SDK: each required tool with the version found or 'missing', "
            "whether tiercheck would provision it, and whether the line is runnable here. "
            "Then the harness tiercheck runs: which revisions its bundle ships sets for that "
            "tiercheck has no data for, each revision's harness beside the pinned one (a revision "
            "defined by a newer harness is a warning), and whether the npm registry publishes a "
            "newer version. JSON: {rows: [...], harness: {...}}. Exit 0 when every row shown is "
            "runnable, 1 otherwise (a warning changes no exit code)."
        ),
    )
    parser.add_argument("--sdk", metavar="NAME", help="only this SDK (a name or OWNER/REPO)")
    parser.add_argument(
        "--sdk-path",
        metavar="DIR",
        help=(
            "only this checkout (config from --sdk, else the flags): its row, then what an "
            "assessment with the same flags would run (not runnable when no leg has a command)"
        ),
    )
    parser.add_argument("--output", choices=("text", "json"), default="text")
    parser.add_argument("--cache-dir", metavar="DIR", help="where provisioned tools live")
    add_config_flags(parser)
    return parser


def _tool_cell(tool: dict[str, Any]) -> str:
    needed = f">={tool['needed']}" if tool["needed"] else ""
    state = tool["state"]
    if state == "found":
        return f"{tool['tool']}{needed} {tool['found']}"
    if state == "provision":
        plan = tool["provisioned"] or {}
        how = "cached" if plan.get("cached") else "would be provisioned"
        return f"{tool['tool']}{needed} {plan.get('version', '?')} ({how})"
    if state == "too-old":
        return f"{tool['tool']}{needed} {tool['found']} (too old)"
    if state == "broken":
        return f"{tool['tool']}{needed} (no version from {tool['path']})"
    return f"{tool['tool']}{needed} missing"


def doctor(args: argparse.Namespace) -> int:
    """`tier-check doctor`: the rows, as text or JSON; exit 1 when a row is not runnable."""

    registry = known_sdks(args)
    previews: list[RunPreview] = []
    if args.sdk_path:
        rows, previews = _checkout_row(args, registry)
    else:
        if args.sdk:
            name = args.sdk.rsplit("/", 1)[-1] if "/" in args.sdk else args.sdk
            entries = [registry.get(name)]
        else:
            entries = list(registry.entries.values())
        rows = [row.to_dict() for row in diagnose(entries, cache_dir(args))]
    facts = harness_facts(cache_dir(args))
    if args.output == "json":
        document: dict[str, Any] = {"rows": rows, "harness": facts.to_dict()}
        if args.sdk_path:
            document["would_run"] = {p.revision: p.to_dict() for p in previews}
        print_json(document)
    else:
        width = max((len(r["sdk"]) for r in rows), default=3)
        lines = []
        for r in rows:
            verdict = "runnable" if r["runnable"] else "NOT runnable"
            tools = ", ".join(_tool_cell(t) for t in r["tools"]) or "no tools declared"
            lines.append(f"{r['sdk']:<{width}}  {verdict:<12}  {tools}")
            if r["reason"]:
                lines.append(f"{'':<{width}}  {r['reason']}")
        for preview in previews:
            lines.append(f"revision {preview.revision} would run:")
            lines.extend(f"  {line}" for line in preview.lines())
        lines.extend(facts.lines())
        emit("\n".join(lines))
    return 0 if all(r["runnable"] for r in rows) else 1


def _checkout_row(
    args: argparse.Namespace, registry: Registry
) -> tuple[list[dict[str, Any]], list[RunPreview]]:
    """`--sdk-path DIR`: the one row of that checkout (its entry's tools, or none declared),
    and what would run at each revision; not runnable when no leg has a command."""
    target = resolve_target(registry, sdk=args.sdk, sdk_path=Path(args.sdk_path), repo=None)
    entry = target.entry
    revisions = entry.revisions if entry else known_revisions()
    flags = config_flags(args)
    configs = [resolve(entry, rev, environ=os.environ, flags=flags) for rev in revisions]
    previews = [preview_run(config, checkout=target.path) for config in configs]
    if entry is not None:
        row = diagnose([entry], cache_dir(args))[0].to_dict()
    else:
        row = {"sdk": target.name, "runnable": True, "reason": None, "tools": []}
    if nothing_would_run(previews):
        why = (
            "no leg has a command"
            + ("" if entry else f" ({target.name} is not in the registry)")
            + ": pass --server-cmd and --server-url, --client-cmd, or --registry FILE "
            "(`tier-check init` writes an entry)"
        )
        row["runnable"] = False
        row["reason"] = "; ".join(r for r in (row["reason"], why) if r)
    return [row], previews
