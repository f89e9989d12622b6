"""The tier claim pack: the requirements table of the official audit, with its evidence.

`sources` reads the assessed checkout (the only I/O here); `features`, `docs`, `policies`,
`evidence` and `table` are pure rules; `pack` assembles a `Claim`; the claim renders itself over
the render kit: `wording` is what it says, as text segments its two renderings share, `fit` fits
the assessment into one GitHub issue body, `markdown` and `html` render it. The command is
`tier-check claim` (`tiercheck/cli/claim.py`).
"""
