"""Advisory behaviour probes: the security and wire checks the conformance suite leaves out.

Each probe (one module each) runs against a server that is already up, at one revision, with
a bounded number of requests over `client.ProbeClient` (loopback only, per-request timeout,
size cap), and reports pass / warn / fail / skip with its evidence, the spec sentence it rests
on and a fix. Probes are advisory: nothing here reaches a score, a tier or an exit code
(except the opt-in `--fail-on-probe` and the standalone `tier-check probe`).
"""

from __future__ import annotations

from tiercheck.probes.base import Outcome, Probe, ProbeResult
from tiercheck.probes.run import PROBES, ProbeReport, probe_names, run_probes, select

__all__ = [
    "PROBES",
    "Outcome",
    "Probe",
    "ProbeReport",
    "ProbeResult",
    "probe_names",
    "run_probes",
    "select",
]
