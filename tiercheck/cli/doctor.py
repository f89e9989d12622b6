"""`tier-check doctor [--sdk NAME] [--output json]`: which SDK lines this machine can run, and
the harness tiercheck runs.

`--output json` is one object: `rows` (one per SDK line, as the text's rows) and `harness` (the
text's harness facts). The rows keep the shape they had as the whole document's list; the
harness facts belong to no line, so they sit beside the rows rather than among them."""

from __future__ import annotations

import argparse
from typing import Any

from tiercheck.cli.common import cache_dir, emit, known_sdks, print_json
from tiercheck.pipeline.doctor import diagnose, harness_facts

__all__ = ["doctor", "doctor_parser"]


def doctor_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check doctor [--sdk NAME] [--output text|json] [--registry FILE]`."""
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
    parser.add_argument("--output", choices=("text", "json"), default="text")
    parser.add_argument("--registry", metavar="FILE", help="another known_sdks.yaml")
    parser.add_argument("--cache-dir", metavar="DIR", help="where provisioned tools live")
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
    if args.sdk:
        name = args.sdk.rsplit("/", 1)[-1] if "/" in args.sdk else args.sdk
        entries = [registry.get(name)]
    else:
        entries = list(registry.entries.values())
    rows = [row.to_dict() for row in diagnose(entries, cache_dir(args))]
    facts = harness_facts(cache_dir(args))
    if args.output == "json":
        print_json({"rows": rows, "harness": facts.to_dict()})
    else:
        width = max((len(r["sdk"]) for r in rows), default=3)
        lines = []
        for r in rows:
            verdict = "runnable" if r["runnable"] else "NOT runnable"
            tools = ", ".join(_tool_cell(t) for t in r["tools"]) or "no tools declared"
            lines.append(f"{r['sdk']:<{width}}  {verdict:<12}  {tools}")
            if r["reason"]:
                lines.append(f"{'':<{width}}  {r['reason']}")
        lines.extend(facts.lines())
        emit("\n".join(lines))
    return 0 if all(r["runnable"] for r in rows) else 1
