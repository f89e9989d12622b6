"""`tier-check probe URL`: the advisory probes against any running MCP server
(`pipeline.probe`)."""

from __future__ import annotations

import argparse
import json

from tiercheck.cli.common import emit

__all__ = ["probe", "probe_parser"]


def probe_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check probe URL [--revision REV] [--probe NAME…] [--output terminal|json]`."""
    from tiercheck.pipeline.probe import probe_listing, probe_revisions

    known = probe_revisions()
    parser = argparse.ArgumentParser(
        prog=prog,
        epilog="\n".join(probe_listing()),
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
    """`tier-check probe URL`: 0 unless a probe failed (1); 2 for a URL nothing answers at
    (`pipeline.probe`)."""
    from tiercheck.pipeline.probe import ProbeRequest
    from tiercheck.pipeline.probe import probe as run

    request = ProbeRequest(args.url, args.revision, tuple(args.probe or ()), timeout_s=args.timeout)
    probed = run(request)
    if args.output == "json":
        emit(json.dumps(probed.to_dict(), indent=2))
    else:
        emit(probed.text(markdown=args.output == "markdown"))
    return probed.exit_code
