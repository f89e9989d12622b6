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

PROG_NAME = "tier-check"

__all__ = ["list_sdks", "requirements", "show_config"]


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration-override flags as the cascade expects them ({flag: value or None})."""
    from tiercheck.config.resolve import flag_fields

    return {str(spec.flag): getattr(args, spec.dest, None) for spec in flag_fields()}


def _registry(args: argparse.Namespace) -> Any:
    from tiercheck.config.registry import REGISTRY_ENV, load_registry

    path = getattr(args, "registry", None) or os.environ.get(REGISTRY_ENV)
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
    from tiercheck.revisions import is_known_revision, unknown_revision

    registry = _registry(args)
    entry = registry.get(args.sdk)
    revisions = list(entry.revisions)
    if args.revision:
        if not is_known_revision(args.revision):
            raise UsageError(f"--revision: {unknown_revision(args.revision)}")
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


def _governance_options(args: argparse.Namespace, cache_dir: Path) -> Any:
    from tiercheck.governance.verbs import options_from_args

    return options_from_args(args, cache_dir / "github")


def _cache_dir(args: argparse.Namespace) -> Path:
    from tiercheck.paths import cache_dir

    return cache_dir(args.cache_dir)


def _formats(args: argparse.Namespace) -> list[str]:
    chosen: list[str] = args.output or ["terminal"]
    return list(dict.fromkeys(chosen))


def _stdout_color() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _emit(doc: dict[str, Any], formats: list[str]) -> None:
    """Write the chosen formats to stdout (and nothing else goes there)."""
    from tiercheck import report

    color = _stdout_color()
    parts = []
    for fmt in formats:
        if fmt == "json":
            parts.append(report.render_json(doc))
        elif fmt == "markdown":
            parts.append(report.render_markdown(doc))
        elif fmt == "junit":
            parts.append(report.render_junit(doc))
        else:
            parts.append(report.render_terminal(doc, color=color))
    sys.stdout.write("\n".join(p.rstrip("\n") + "\n" for p in parts))
    sys.stdout.flush()


def assess(args: argparse.Namespace) -> int:
    """`tier-check --sdk NAME[@REF]`: the whole assessment."""
    from tiercheck.assessment import assess as run_assessment
    from tiercheck.pipeline import AssessOptions, default_concurrency, now_utc, run_id
    from tiercheck.report import make_progress, write_reports
    from tiercheck.target import resolve_target

    registry = _registry(args)
    url_mode = args.conformance_server_url is not None
    if url_mode and args.sdk_path:
        msg = "--conformance-server-url runs against a server already running; drop --sdk-path"
        raise UsageError(msg)
    if url_mode and not args.repo:
        msg = "--conformance-server-url needs --repo OWNER/REPO to attribute the results"
        raise UsageError(msg)
    if url_mode:
        from tiercheck.target import Target

        entry = registry.find(args.sdk) if args.sdk else None
        target = Target(
            name=entry.name if entry else args.repo.rsplit("/", 1)[-1],
            repo=args.repo,
            ref=None,
            entry=entry,
            path=None,
        )
    else:
        target = resolve_target(
            registry,
            sdk=args.sdk,
            sdk_path=Path(args.sdk_path) if args.sdk_path else None,
            repo=args.repo,
        )
    if args.skip_governance and (args.governance_snapshot or args.record_governance):
        msg = "--skip-governance cannot be combined with --governance-snapshot/--record-governance"
        raise UsageError(msg)
    if args.rebuild and args.skip_build:
        msg = "--rebuild and --skip-build contradict each other; pick one"
        raise UsageError(msg)
    cache_dir = _cache_dir(args)
    started = now_utc()
    out_dir = (
        Path(args.out)
        if args.out
        else Path("reports") / target.name.replace("/", "__") / run_id(started)
    )
    concurrency = default_concurrency() if args.concurrency is None else max(0, args.concurrency)
    options = AssessOptions(
        target=target,
        cache_dir=cache_dir,
        out_dir=out_dir.resolve(),
        flags=config_flags(args),
        environ=dict(os.environ),
        revisions=tuple(args.revision) if args.revision else None,
        server_url=args.conformance_server_url,
        git_url=args.git_url,
        rebuild=args.rebuild,
        skip_build=args.skip_build or url_mode,
        harness_version=args.harness_version or _pinned(),
        concurrency=concurrency,
        sequential=args.sequential,
    )
    governance = _governance_options(args, cache_dir)
    progress = make_progress()
    try:
        doc = run_assessment(
            options,
            governance,
            progress,
            started_at=started,
            explicit_baseline=args.expected_failures is not None,
        )
    finally:
        progress.close()
    written = write_reports(doc, options.out_dir)
    if doc.get("interrupted"):
        sys.stderr.write(f"{PROG_NAME}: interrupted; what was measured is in the reports\n")
    _emit(doc, _formats(args))
    sys.stderr.write(
        f"reports: {options.out_dir} ({', '.join(p.name for p in written.values())})\n"
    )
    code: int = doc["exit_code"]
    return code


def _pinned() -> str:
    from tiercheck.conformance.harness import PINNED_VERSION

    return PINNED_VERSION


def setup(args: argparse.Namespace) -> int:
    """`tier-check setup`: provision the pinned harness and Node 22 into the cache."""
    from tiercheck.conformance.harness import provision

    harness = provision(
        _cache_dir(args),
        version=args.harness_version or _pinned(),
        progress=lambda text: print(text, file=sys.stderr),
    )
    sys.stdout.write(
        f"harness {harness.version} with node {harness.node_version} at {harness.root}\n"
    )
    return 0


def _score_inputs(args: argparse.Namespace) -> list[tuple[str, Path | None, Path | None]]:
    """(revision, server results, client results) from the flags or a `<rev>/<leg>/` folder."""
    if args.results:
        root = Path(args.results)
        if not root.is_dir():
            msg = f"--results {root}: not a directory"
            raise UsageError(msg)
        found = []
        for child in sorted(p for p in root.iterdir() if p.is_dir()):
            server, client = child / "server", child / "client"
            found.append(
                (
                    child.name,
                    server if server.is_dir() else None,
                    client if client.is_dir() else None,
                )
            )
        if not found:
            msg = f"--results {root}: expected folders laid out <revision>/<leg>/"
            raise UsageError(msg)
        return found
    revisions: list[str] = args.requirements
    if not revisions:
        msg = "score needs --requirements REV with --server-results/--client-results, or --results"
        raise UsageError(msg)
    servers, clients = args.server_results, args.client_results
    for flag, given in (("--server-results", servers), ("--client-results", clients)):
        if given and len(given) != len(revisions):
            msg = f"{flag} given {len(given)} time(s) for {len(revisions)} --requirements"
            raise UsageError(msg)
    if not servers and not clients:
        msg = "score needs --server-results and/or --client-results"
        raise UsageError(msg)
    return [
        (
            rev,
            Path(servers[i]) if servers else None,
            Path(clients[i]) if clients else None,
        )
        for i, rev in enumerate(revisions)
    ]


def score(args: argparse.Namespace) -> int:
    """`tier-check score`: judge raw harness results an SDK's own CI already produced."""
    from tiercheck.assessment import score_results

    inputs = _score_inputs(args)
    paths = [Path(p) for p in args.expected_failures]
    if len(paths) not in (0, 1, len(inputs)):
        msg = "give one --expected-failures for all revisions, or one per revision"
        raise UsageError(msg)
    baselines = {
        revision: paths[0] if len(paths) == 1 else paths[i]
        for i, (revision, _, _) in enumerate(inputs)
        if paths
    }
    doc = score_results(inputs, repo=args.repo, baselines=baselines)
    _emit(doc, _formats(args))
    code: int = doc["exit_code"]
    return code


def governance(args: argparse.Namespace) -> int:
    """`tier-check governance --repo OWNER/REPO`: the six governance checks."""
    from tiercheck.governance import verbs

    return verbs.governance(args)


def labels(args: argparse.Namespace) -> int:
    """`tier-check labels --repo OWNER/REPO`: the label taxonomy check, as JSON."""
    from tiercheck.governance import verbs

    return verbs.labels(args)


def triage(args: argparse.Namespace) -> int:
    """`tier-check triage --repo OWNER/REPO [--days N]`: the triage check, as JSON."""
    from tiercheck.governance import verbs

    return verbs.triage(args)


def diff(args: argparse.Namespace) -> int:
    """`tier-check diff OLD.json NEW.json`: what changed; exit 1 on a regression."""
    from tiercheck.report import diff as diffing
    from tiercheck.report.writer import load_scorecard

    old = load_scorecard(Path(args.old))
    new = load_scorecard(Path(args.new))
    result = diffing.diff_scorecards(old, new)
    if args.output == "markdown":
        text = diffing.render_diff_markdown(result)
    elif args.output == "json":
        import json

        text = json.dumps(diffing.diff_to_dict(result), indent=2) + "\n"
    else:
        text = diffing.render_diff_terminal(result, color=_stdout_color())
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 1 if result.has_regression else 0
