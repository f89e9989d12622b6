"""The ordered steps of one assessment.

plan → checkout → provision → build → legs → judge → scorecard, one module per step, run in
order by `assess.assess` (the conformance half, checkout to legs, by `measure.measure`). Each
step is a function from typed inputs to a frozen result that carries what it measured and its
own unmeasured entries; nothing is shared and appended to across steps. Nothing here prints or
parses YAML: progress goes through the `ProgressSink` the CLI hands in, and every failure to
measure becomes an unmeasured entry with its reason, so a scorecard is always produced.
"""

from tiercheck.pipeline.base import AssessOptions, ProgressSink, RunSettings, default_concurrency
from tiercheck.pipeline.facts import harness_facts, now_utc, run_id, tiercheck_facts
from tiercheck.pipeline.plan import RevisionPlan, plan_revisions

__all__ = [
    "AssessOptions",
    "ProgressSink",
    "RevisionPlan",
    "RunSettings",
    "default_concurrency",
    "harness_facts",
    "now_utc",
    "plan_revisions",
    "run_id",
    "tiercheck_facts",
]
