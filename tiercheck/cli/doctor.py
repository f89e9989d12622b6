"""`tier-check doctor [--sdk NAME | --sdk-path DIR] [--output json]`: which SDK lines this
machine can run (their tools are ready and a leg would run, as `show-config` previews it), and
the harness tiercheck runs. With `--sdk-path DIR` (and the configuration flags), the one row of
that checkout and what an assessment would run at each revision.

`--output json` is one object: `rows` (one per SDK line, as the text's rows) and `harness` (the
text's harness facts), and with `--sdk-path` `would_run` (revision → what would run).
The rows keep the shape they had as the whole document's list; the harness facts belong to no
line, so they sit beside the rows rather than among them."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from tiercheck.cli.common import (
    add_config_flags,
    cache_dir,
    config_flags,
    emit,
    known_sdks,
    print_json,
)
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.doctor import DoctorRequest
from tiercheck.pipeline.doctor import doctor as run_doctor

__all__ = ["doctor", "doctor_parser"]


def doctor_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check doctor [--sdk NAME] [--sdk-path DIR] [--output text|json] [--registry FILE]`
    and the configuration flags."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "One row per known SDK: each required tool with the version found or 'missing', "
            "whether tiercheck would provision it, and whether the line is runnable here (its "
            "tools are ready and an assessment with the same flags would run a leg). "
            "Then the harness tiercheck runs: which revisions its bundle ships sets for that "
            "tiercheck has no data for, each revision's harness beside the pinned one (a revision "
            "defined by a newer harness is a warning), and whether the npm registry publishes a "
            "newer version. JSON: {rows: [...], harness: {...}}. Exit 0 when every row shown is "
            "runnable, 1 otherwise (a warning changes no exit code)."
        ),
    )
    options.SDK.add_to(parser, metavar="NAME", help="only this SDK (a name or OWNER/REPO)")
    options.SDK_PATH.add_to(
        parser,
        help=(
            "only this checkout (config from --sdk, else the flags): its row, then what an "
            "assessment with the same flags would run (not runnable when no leg has a command)"
        ),
    )
    parser.add_argument("--output", choices=("text", "json"), default="text")
    options.CACHE_DIR.add_to(parser, help="where provisioned tools live")
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

    found = run_doctor(
        DoctorRequest(
            registry=known_sdks(args),
            cache_dir=cache_dir(args),
            environ=os.environ,
            flags=config_flags(args),
            sdk=args.sdk,
            sdk_path=Path(args.sdk_path) if args.sdk_path else None,
        )
    )
    rows = [row.to_dict() for row in found.rows]
    if args.output == "json":
        document: dict[str, Any] = {"rows": rows, "harness": found.harness.to_dict()}
        if args.sdk_path:
            document["would_run"] = {p.revision: p.to_dict() for p in found.previews}
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
        for preview in found.previews:
            lines.append(f"revision {preview.revision} would run:")
            lines.extend(f"  {line}" for line in preview.lines())
        lines.extend(found.harness.lines())
        emit("\n".join(lines))
    return found.exit_code
