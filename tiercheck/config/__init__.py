"""Loading and validating what a user edits: known_sdks.yaml, requirement sets, baselines."""
