"""One whole assessment, under the name the command layer imports.

The steps live in `tiercheck.pipeline` (plan, checkout, provision, build, legs, judge,
scorecard); this module only names the entry points.
"""

from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess import assess, score_results
from tiercheck.pipeline.finish import finish_scorecard
from tiercheck.pipeline.judge import evaluate_governance

__all__ = [
    "GovernanceOptions",
    "assess",
    "evaluate_governance",
    "finish_scorecard",
    "score_results",
]
