"""Each client leg alone: tiercheck against the harness run directly, alternating.

    .venv/bin/python bench/legs.py --sdk-path P --sdk NAME [--runs 2] [--revision REV]
        [--config-arg=ARG …] [--before-arg=ARG …] [--load N] [--json bench/results/legs-NAME.json]

Per revision with a client command, `--runs` times, alternating:
A:  `tier-check --sdk-path P --revision REV --server-cmd= --skip-build --skip-governance`: the
    client leg alone (no server command, so the server leg is skipped), through compare.py's
    boot snippet (tiercheck's own CPU, per thread);
A0: the same with `--before-arg`s (e.g. `--concurrency=2`, the former one-per-core slots);
B:  the harness's `sdk --mode client --requirements REV` for the same client command, timeout
    and environment, as the official `tier-check` runs a client leg (every client at once).

`--load N`: N busy processes (CPU spinners, `while True: pass`) run beside every side's run,
started just before it and stopped just after, the same N for each side. They are not below
this benchmark (a holder started before it became a subreaper owns them), so their CPU is
others' CPU (`foreign_cpu_s`), not the side's.

Reported per revision and side: the leg's wall (A: the scorecard's `timings["client REV"]`, the
harness run inside tiercheck; also the whole command's wall), CPU of the process tree and per
process kind, the CPU others used meanwhile (`foreign_cpu_s`), and whether every scenario's
verdict is the same: each tiercheck side against B (`verdicts_identical`), A0 against A
(`verdicts_identical_a0_a`), with the scenarios that differ (`verdict_differences`; in their
text the first side is written A, the other B). Nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sdk-path", type=Path, required=True)
    parser.add_argument("--sdk", help="SDK name for the config (default: the dir name)")
    parser.add_argument("--runs", type=int, default=2, help="alternations per revision")
    parser.add_argument("--revision", action="append", help="only these revisions")
    parser.add_argument("--cache-dir", type=Path, help="tiercheck cache (TIERCHECK_CACHE)")
    parser.add_argument("--config-arg", action="append", default=[], metavar="ARG")
    parser.add_argument("--before-arg", action="append", default=[], metavar="ARG")
    parser.add_argument("--json", type=Path, help="write the result here")
    parser.add_argument("--keep", action="store_true", help="keep the raw outputs")
    parser.add_argument(
        "--load", type=int, default=0, metavar="N", help="N busy processes beside every side"
    )
    return parser.parse_args(argv)


#: The holder of the busy processes: "start N" starts N spinners, "stop" stops them (by their
#: pids, its own children), each answered "ok" and the spinners' pids; at the end of its input it
#: stops them and exits.
_HOLDER = """
import subprocess, sys
spin = [sys.executable, "-c", "while True: pass"]
busy = []
def stop():
    for p in busy:
        p.kill()
    for p in busy:
        p.wait()
    busy.clear()
for line in sys.stdin:
    stop()
    if line.startswith("start"):
        busy.extend(subprocess.Popen(spin) for _ in range(int(line.split()[1])))
    print("ok", *(p.pid for p in busy), flush=True)
stop()
"""


class Load:
    """N busy processes, started beside each side's run and stopped after it.

    Made before the benchmark becomes a subreaper: `setsid -f` leaves the holder to the
    process that adopts orphans above us, so neither it nor its spinners are below this
    benchmark (sampled, counted as the side's CPU, or reaped as its stragglers).
    """

    def __init__(self, count: int) -> None:
        self.count = max(0, count)
        self._holder: subprocess.Popen[str] | None = None
        #: The spinners running now.
        self.pids: tuple[int, ...] = ()
        if self.count:
            self._holder = subprocess.Popen(
                ["setsid", "-f", sys.executable, "-I", "-c", _HOLDER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            self._holder.wait()  # setsid itself; the holder lives on, with our pipes

    def _ask(self, line: str) -> None:
        holder = self._holder
        if holder is None or holder.stdin is None or holder.stdout is None:
            raise RuntimeError("the load holder has stopped")
        holder.stdin.write(line + "\n")
        holder.stdin.flush()
        answer = holder.stdout.readline().split()
        if answer[:1] != ["ok"]:
            raise RuntimeError(f"the load holder did not answer {line!r}")
        self.pids = tuple(int(pid) for pid in answer[1:])

    @contextlib.contextmanager
    def beside(self) -> Iterator[None]:
        """The spinners run while the block runs."""
        if not self.count:
            yield
            return
        self._ask(f"start {self.count}")
        try:
            yield
        finally:
            self._ask("stop")

    def close(self) -> None:
        """Stop the holder (its spinners with it): the end of its input."""
        if self._holder is not None and self._holder.stdin:
            self._holder.stdin.close()
            if self._holder.stdout:
                self._holder.stdout.read()  # its end: the holder has stopped its spinners
                self._holder.stdout.close()
            self._holder = None


def _row(sample: compare.RunSample, leg_wall: float | None) -> dict[str, Any]:
    return {
        "leg_wall_s": leg_wall,
        "wall_s": sample.wall_s,
        "cpu_s": sample.cpu_s,
        "foreign_cpu_s": sample.foreign_cpu_s,
        "kinds": sample.kinds,
        "threads": sample.extra.get("tiercheck_threads"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    from tiercheck.conformance.harness import provision
    from tiercheck.paths import default_cache_dir

    sdk_path = args.sdk_path.resolve()
    sdk = args.sdk or sdk_path.name
    cache_dir = (args.cache_dir or default_cache_dir()).resolve()
    revisions = [
        r
        for r in compare.load_config(sdk, cache_dir, args.config_arg)
        if r.client_command and (not args.revision or r.name in args.revision)
    ]
    harness = provision(cache_dir)
    load = Load(args.load)
    compare.become_subreaper()
    work = Path(tempfile.mkdtemp(prefix="tiercheck-legs-"))
    sides = ["A", "A0", "B"] if args.before_arg else ["A", "B"]
    per_rev: dict[str, Any] = {}
    try:
        for rev in revisions:
            key = f"{rev.name}/client"
            rows: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
            same: list[bool] = []
            #: Every scenario whose verdict differs: a tiercheck side against B, and A0 against A.
            differences: list[dict[str, Any]] = []
            for index in range(max(1, args.runs)):
                cards: dict[str, Any] = {}
                for side in sides:
                    label = f"{side}-{rev.name}"
                    if side == "B":
                        out = work / f"B-{rev.name}-{index}"
                        steps = compare.official_steps(
                            [rev], harness_argv=harness.argv(), sdk_path=sdk_path, out=out
                        )
                        steps = [s for s in steps if s.leg == "client"]
                        with load.beside():
                            sample = compare.measure("B", index, steps)
                        rows["B"].append(_row(sample, sample.step_walls.get(key)))
                        b_verdicts = {key: compare.scenario_verdicts(out / key, "client")}
                    else:
                        extra = [*args.config_arg, "--server-cmd="]
                        if side == "A0":
                            extra += args.before_arg
                        with load.beside():
                            sample, card = compare.run_tiercheck(
                                index,
                                label,
                                sdk_path=sdk_path,
                                sdk=sdk,
                                cache_dir=cache_dir,
                                work=work,
                                skip_build=True,
                                revisions=[rev.name],
                                extra=extra,
                            )
                        timings = card.get("timings") or {}
                        rows[side].append(_row(sample, timings.get(f"client {rev.name}")))
                        cards[side] = card
                    last = rows[side][-1]
                    compare.say(
                        f"{rev.name} client, run {index + 1}, {side}: leg "
                        f"{compare._fmt(last['leg_wall_s'])} s, CPU {last['cpu_s']:.1f} s, "
                        f"others {last['foreign_cpu_s']:.1f} CPU-s"
                    )
                ours = {
                    side: compare.tiercheck_verdicts(card, [key]) for side, card in cards.items()
                }
                pairs = [(side, "B", verdicts, b_verdicts) for side, verdicts in ours.items()]
                if "A0" in ours:
                    pairs.append(("A0", "A", ours["A0"], ours["A"]))
                for side, against, left, right in pairs:
                    found = compare.compare_verdicts(left, right)["differences"]
                    if against == "B":
                        same.append(not found)
                    if found:
                        differences.append(
                            {"run": index + 1, "side": side, "against": against, "scenarios": found}
                        )
            medians = {
                side: {
                    "leg_wall_s": compare.median(
                        [r["leg_wall_s"] for r in rows[side] if r["leg_wall_s"] is not None]
                    ),
                    "cpu_s": compare.median([r["cpu_s"] for r in rows[side]]),
                    "foreign_cpu_s": compare.median([r["foreign_cpu_s"] for r in rows[side]]),
                }
                for side in sides
            }
            per_rev[rev.name] = {
                "runs": rows,
                "medians": medians,
                "leg_wall_ratio": {
                    side: compare.ratio(medians[side]["leg_wall_s"], medians["B"]["leg_wall_s"])
                    for side in sides
                    if side != "B"
                },
                "verdicts_identical": all(same),
                "verdicts_identical_a0_a": not any(d["against"] == "A" for d in differences),
                "verdict_differences": differences,
            }
            compare.say(f"{rev.name} client: {json.dumps(per_rev[rev.name]['leg_wall_ratio'])}")
        result = {
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": ["python", "bench/legs.py", *(argv or sys.argv[1:])],
            "sdk": {
                "name": sdk,
                "path": str(sdk_path),
                "commit": compare._git("rev-parse", "HEAD", cwd=sdk_path),
            },
            "tiercheck": {"commit": compare._git("rev-parse", "HEAD")},
            "harness": {"version": harness.version},
            "machine": compare.machine_facts(),
            "before_args": args.before_arg,
            "load": load.count,
            "legs": per_rev,
            "revisions": [asdict(r) for r in revisions],
        }
        target = args.json or compare.REPO / "bench" / "results" / f"legs-{sdk}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", "utf-8")
        compare.say(f"legs: wrote {target}")
    except KeyboardInterrupt:
        compare.reap_stragglers(grace_s=0.0)
        return 130
    finally:
        load.close()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
