"""concurrent-ids: N concurrent `tools/call`s, with unique and with duplicate JSON-RPC ids,
never get each other's responses.

The cross-wiring class of bug: a transport that routes responses by id alone hands one
caller's result to another (CVE-2026-25536; a python-sdk issue saw one user's tool response
delivered to another conversation). Duplicate ids MAY be refused; they must never be
answered with another request's result.

Cross-wiring is a race, so one round of calls sees it on one run and misses it on the next.
The probe repeats its round up to `ROUNDS` times (and for at most `DEADLINE_S`), and the
verdict rests on proof, never on a rate: a call answered with another tool's result, byte for
byte, is a cross-wiring whatever round it came in, and one is enough to warn or fail. A race
that shows in a fraction p of the rounds is missed by all 40 with probability (1 - p)^40
(under 5% once p reaches 7.5%, under 0.1% once it reaches 16%), so the verdict of a server
changes from run to run only when its race is rarer than that; the rate ("cross-wired in 3 of
40 rounds") is reported beside it, so a rare race is visible as one.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tiercheck.probes.base import Finding, Probe, ProbeContext, Rounds, Skip, broken, ok
from tiercheck.probes.client import ProbeTransportError, Reply
from tiercheck.probes.wire import Wire

__all__ = [
    "CONCURRENCY",
    "DEADLINE_S",
    "PROBE",
    "ROUNDS",
    "WAIT_FACTOR",
    "WAIT_MIN_S",
    "fingerprint",
    "observe",
    "round_ids",
]

#: Requests in flight at once, per batch (a round is a batch of unique ids, then one of a
#: shared id).
CONCURRENCY = 8
#: Rounds at most: the fixed bound the rate is reported against.
ROUNDS = 40
#: No round starts after this many seconds of rounds (the first always runs).
DEADLINE_S = 30.0
#: A call of a round waits for its answer this many times the median lone call, and at least
#: `WAIT_MIN_S` (never more than the request timeout). A server that cross-wires a duplicate
#: id often leaves the other callers with no answer at all (python-sdk's transport does); a
#: full request timeout for each of those would let only a few rounds fit in the deadline.
#: The median, not the slowest: a server's first call is often many times slower (imports,
#: a JIT warming up). A call that misses the wait is counted unanswered, which proves nothing
#: either way.
WAIT_FACTOR = 20
WAIT_MIN_S = 0.25
#: JSON-RPC ids of round r are ID_BASE + 1000 r + i (unique) and ID_BASE + 1000 r + 500
#: (shared): fresh in every round, so a late answer of one round can never match another's.
ID_BASE = 7_000_000

_UNIQUE, _DUPLICATE = "unique ids", "duplicate ids"


def fingerprint(result: Any) -> str:
    """A tool result without its `_meta` (which may stamp per-request data), as canonical JSON."""
    if not isinstance(result, dict):
        return json.dumps(result, sort_keys=True)
    return json.dumps({k: v for k, v in result.items() if k != "_meta"}, sort_keys=True)


def round_ids(round_no: int) -> tuple[list[int], list[int]]:
    """The ids of round `round_no` (0-based): (unique ids, the shared id repeated)."""
    base = ID_BASE + 1000 * round_no
    return [base + i for i in range(CONCURRENCY)], [base + 500] * CONCURRENCY


@dataclass
class _Tally:
    """One kind of batch (unique or duplicate ids) over every round."""

    calls: Counter[str] = field(default_factory=Counter)
    rounds_crossed: int = 0
    examples: list[str] = field(default_factory=list)

    def line(self, kind: str) -> str:
        c = self.calls
        parts = [
            f"{c['own']} answered with their own result",
            f"{c['crossed']} cross-wired",
            f"{c['refused']} refused",
            f"{c['unanswered']} unanswered",
        ]
        if c["unrecognised"]:
            parts.append(f"{c['unrecognised']} with a result of no listed tool")
        return f"{kind}: " + ", ".join(parts)


def _distinct_tools(ctx: ProbeContext, wire: Wire) -> tuple[dict[str, str], float]:
    """Up to four plain tools whose results differ from each other and stay the same from one
    call to the next (name → fingerprint), and the median of those lone calls in seconds.

    A tool whose result changes per call (a clock, a counter) is left out: its answer could
    not prove a cross-wiring."""
    seen: dict[str, str] = {}
    took: list[float] = []
    for tool in ctx.plain_tools():
        name = str(tool["name"])
        marks = []
        for _ in range(2):
            began = time.monotonic()
            result = wire.call("tools/call", {"name": name, "arguments": {}})
            took.append(time.monotonic() - began)
            marks.append(None if result is None else fingerprint(result))
        mark = marks[0]
        if mark is not None and mark == marks[1] and mark not in seen.values():
            seen[name] = mark
        if len(seen) == 4:
            break
    return seen, statistics.median(took) if took else 0.0


def _batch(
    wire: Wire, pool: ThreadPoolExecutor, names: list[str], ids: list[int], wait_s: float
) -> list[tuple[str, int, Reply | None]]:
    """Send one call per (name, id) at once: [(name, id, the reply, or None without one)]."""

    def one(i: int) -> tuple[str, int, Reply | None]:
        params = {"name": names[i], "arguments": {}}
        try:
            _, reply = wire.request("tools/call", params, request_id=ids[i], timeout_s=wait_s)
        except ProbeTransportError:
            return names[i], ids[i], None
        return names[i], ids[i], reply

    return list(pool.map(one, range(len(names))))


def _classify(reply: Reply | None, rid: int, own: str, by_mark: dict[str, str]) -> str:
    """own | crossed | refused | unanswered | unrecognised."""
    answer = reply.response(rid) if reply is not None else None
    if answer is None:
        return "unanswered"
    if "error" in answer:
        # A duplicate id may be refused; a refusal under load says nothing of cross-wiring.
        return "refused"
    got = fingerprint(answer.get("result"))
    if got == own:
        return "own"
    # Only another tool's result, exactly, proves a cross-wiring; anything else is noted.
    return "crossed" if got in by_mark else "unrecognised"


@dataclass
class _Seen:
    """What the rounds saw: the calls of each kind, the rounds run and those that crossed."""

    tally: dict[str, _Tally] = field(
        default_factory=lambda: {_UNIQUE: _Tally(), _DUPLICATE: _Tally()}
    )
    run: int = 0
    observed: int = 0
    #: The first call's request and reply, as evidence of what one call looks like.
    sample: str = ""


def _rounds(
    wire: Wire, marks: dict[str, str], rounds: int, deadline_s: float, wait_s: float
) -> _Seen:
    """Up to `rounds` rounds, none started after `deadline_s`: a batch of unique ids, then one
    of a shared id, each call classified against the tools' fingerprints."""
    tools = list(marks)
    names = [tools[i % len(tools)] for i in range(CONCURRENCY)]
    by_mark = {mark: name for name, mark in marks.items()}
    seen = _Seen()
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=CONCURRENCY, thread_name_prefix="probe-call") as pool:
        for round_no in range(rounds):
            if round_no and time.monotonic() - began >= deadline_s:
                break
            crossed_here = False
            for kind, ids in zip((_UNIQUE, _DUPLICATE), round_ids(round_no), strict=True):
                tally = seen.tally[kind]
                crossed_batch = False
                for name, rid, reply in _batch(wire, pool, names, ids, wait_s):
                    what = _classify(reply, rid, marks[name], by_mark)
                    tally.calls[what] += 1
                    if not seen.sample and reply is not None:
                        seen.sample = f"POST tools/call {name} (id {rid}) → {reply.evidence()}"
                    if what != "crossed":
                        continue
                    crossed_batch = True
                    if reply is not None and len(tally.examples) < 2:
                        other = by_mark[fingerprint((reply.response(rid) or {}).get("result"))]
                        tally.examples.append(
                            f"round {round_no + 1}, {kind}: tools/call {name} (id {rid}) "
                            f"got {other}'s result"
                        )
                tally.rounds_crossed += crossed_batch
                crossed_here = crossed_here or crossed_batch
            seen.observed += crossed_here
            seen.run += 1
    return seen


def observe(
    ctx: ProbeContext,
    *,
    rounds: int = ROUNDS,
    deadline_s: float = DEADLINE_S,
    wait_s: float | None = None,
) -> Finding:
    """Up to `rounds` rounds (no new one after `deadline_s`), each a batch of unique ids then a
    batch sharing one id; the verdict from what any round proved. `wait_s` fixes how long a
    call of a round waits (default: from the lone calls' median, as `WAIT_FACTOR` says)."""
    wire = ctx.wire()
    marks, lone_s = _distinct_tools(ctx, wire)
    if len(marks) < 2:
        raise Skip("fewer than two argument-free tools with different, stable results")
    if wait_s is None:
        wait_s = min(ctx.client.timeout_s, max(WAIT_MIN_S, WAIT_FACTOR * lone_s))
    seen = _rounds(wire, marks, rounds, deadline_s, wait_s)
    unique, duplicate = seen.tally[_UNIQUE], seen.tally[_DUPLICATE]
    record = Rounds(bound=rounds, run=seen.run, observed=seen.observed)
    stopped = f", stopped by the {deadline_s:g} s bound" if seen.run < rounds else ""
    evidence = [
        f"{CONCURRENCY} concurrent POST tools/call over {', '.join(marks)} with unique ids, then "
        f"{CONCURRENCY} sharing one id, in {seen.run} of {rounds} rounds{stopped}; a call "
        f"waited at most {wait_s:.2f} s",
        *([seen.sample] if seen.sample else []),
        unique.line(_UNIQUE),
        duplicate.line(_DUPLICATE),
        *unique.examples,
        *duplicate.examples,
    ]
    if seen.observed:
        summary = (
            f"cross-wired in {record.rate()} ({_UNIQUE} in {unique.rounds_crossed}, "
            f"{_DUPLICATE} in {duplicate.rounds_crossed})"
        )
        if ctx.modern or unique.rounds_crossed:
            return broken(summary, *evidence, rounds=record)
        # At 2025-11-25 duplicate ids inside one session already break the client's own MUST
        # (an id is not reused within a session), so the server's cross-wiring is a WARN there.
        note = "; duplicate ids in one session: the client broke id uniqueness first"
        return broken(summary + note, *evidence, level="SHOULD", rounds=record)
    sent, own = seen.run * CONCURRENCY, unique.calls["own"]
    if 2 * own < sent:
        # Too few answers to say anything; half is far from what either a sound server (all)
        # or one that refuses concurrency (none) gives, so load does not flip pass and skip.
        msg = (
            f"cross-wired in {record.rate()}, but only {own} of {sent} unique-id calls got "
            "their result (timeouts or refusals): too few to judge"
        )
        raise Skip(msg, rounds=record)
    summary = (
        f"cross-wired in {record.rate()} of {CONCURRENCY} concurrent calls over {len(marks)} "
        "tools, unique then duplicate ids: every response reached its own request"
    )
    return ok(summary, *evidence, rounds=record)


def check(ctx: ProbeContext) -> Finding:
    """`observe` with the probe's fixed bounds (or the context's bound on rounds)."""
    return observe(ctx, rounds=ctx.race_rounds or ROUNDS)


PROBE = Probe(
    name="concurrent-ids",
    title="concurrent calls are never cross-wired",
    level="MUST",
    spec=(
        "Responses MUST include the same ID as the request they correspond to (basic, "
        "Responses). At 2026-07-28 every POST stands alone, so concurrent POSTs may share an "
        "id and a cross-wired answer is a FAIL; at 2025-11-25 the request ID MUST NOT have "
        "been used before within the same session, so with duplicates only the SHOULD is left "
        "that 'the SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC "
        "request sent in the POST body' (basic/transports): a WARN (cross-wiring with unique "
        "ids is a FAIL at both)."
    ),
    fix=(
        "Route each response to the HTTP request (or stream) that carried the call, keyed by "
        "connection and id, never by id alone; refuse a duplicate in-flight id rather than "
        "sharing a slot."
    ),
    check=check,
    needs=("http-url", "two argument-free tools with different results"),
)
