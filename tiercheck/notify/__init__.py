"""Telling people about the nightly: one tracking issue per SDK line, or one sticky comment on a
pull request. `plan` decides the calls (pure); `github` makes them through PyGithub."""
