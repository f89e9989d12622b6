"""`tier-check probe URL`: the advisory probes against any running MCP server; and whether the
assessment's probes failed (`--fail-on-probe`, declared with the assessment's options)."""

from __future__ import annotations

import argparse
import json

from tiercheck.cli.common import emit
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.options import probe_selection
from tiercheck.revisions import known_revisions

__all__ = ["probe", "probe_failed", "probe_parser"]


def probe_failed(doc: object) -> bool:
    """Whether any revision's probes failed in the scorecard `doc`."""
    revisions = getattr(doc, "revisions", {})
    return any(entry.probes is not None and entry.probes.of("fail") for entry in revisions.values())


def probe_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check probe URL [--revision REV] [--probe NAME…] [--output terminal|json]`."""
    from tiercheck.probes import PROBES

    known = known_revisions()
    every = "both" if len(known) == 2 else "all"
    lines = ["probes (level; revisions):"]
    for p in PROBES:
        at = [revision for revision in known if p.applies_to(revision)]
        where = every if at == list(known) else ", ".join(at)
        lines.append(f"  {p.name:<20} {p.title} ({p.level}; {where})")
    parser = argparse.ArgumentParser(
        prog=prog,
        epilog="\n".join(lines),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Run the advisory behaviour probes against a running MCP server on 127.0.0.1 or "
            "localhost. Exits 1 only when a probe fails (a MUST broken); warnings and skips pass."
        ),
    )
    parser.add_argument("url", metavar="URL", help="the server's MCP endpoint (loopback only)")
    parser.add_argument("--revision", choices=known, default=known[-1])
    parser.add_argument(
        "--probe", action="append", metavar="NAME", help="run only this probe (repeatable)"
    )
    parser.add_argument("--output", choices=("terminal", "markdown", "json"), default="terminal")
    parser.add_argument(
        "--timeout", type=float, default=5.0, metavar="S", help="seconds per request (default 5)"
    )
    return parser


def probe(args: argparse.Namespace) -> int:
    """`tier-check probe URL`: 0 unless a probe failed (1); 2 for a URL nothing answers at."""
    from tiercheck.model import from_json
    from tiercheck.probes import run_probes
    from tiercheck.probes.client import ProbeClient, ProbeTransportError, check_loopback
    from tiercheck.scorecard.model import ProbesBlock
    from tiercheck.scorecard.render.probes import probes_markdown, probes_text

    refused = check_loopback(args.url)
    if refused:
        raise UsageError(refused)
    if args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    names = probe_selection(",".join(args.probe)) if args.probe else None
    with ProbeClient(args.url, timeout_s=args.timeout) as client:
        try:
            client.send("GET", headers_only=True)
        except ProbeTransportError as exc:
            msg = f"nothing answers at {args.url}: {exc}"
            raise UsageError(msg) from exc
    report = run_probes(args.url, args.revision, names, timeout_s=args.timeout)
    if args.output == "json":
        emit(json.dumps(report.to_dict(), indent=2))
    else:
        block = from_json(ProbesBlock, report.to_dict(), "probes")
        render = probes_markdown if args.output == "markdown" else probes_text
        emit(render({args.revision: block}).rstrip("\n"))
    return 1 if report.failed else 0
