#!/usr/bin/env bash
# The shell steps of the composite action (action.yml), kept in one script so they can be run
# and tested outside GitHub exactly as the runner runs them:
#
#   tiercheck-action.sh install   pip-install tiercheck from the action's own checkout (its ref)
#   tiercheck-action.sh assess    run the assessment, write the step summary and the outputs
#
# Inputs arrive as TIERCHECK_INPUT_* variables (set by action.yml from `inputs.*`); GitHub's
# GITHUB_ACTION_PATH, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT say where things are.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"

install() {
  python3 -m pip install --disable-pip-version-check -q "$action_path"
  tier-check setup
}

# One line of GitHub's `name=value` output format.
output() {
  if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

assess() {
  local out="${TIERCHECK_INPUT_OUT:-tiercheck-report}"
  local args=(--out "$out")
  if [[ -n "${TIERCHECK_INPUT_SDK:-}" ]]; then
    args+=(--sdk "$TIERCHECK_INPUT_SDK")
  fi
  args+=(--sdk-path "${TIERCHECK_INPUT_SDK_PATH:-.}")
  if [[ -n "${TIERCHECK_INPUT_REPO:-}" ]]; then
    args+=(--repo "$TIERCHECK_INPUT_REPO")
  fi
  local revisions="${TIERCHECK_INPUT_REVISIONS:-}" revision
  for revision in ${revisions//,/ }; do
    args+=(--revision "$revision")
  done
  if [[ -n "${TIERCHECK_INPUT_EXPECTED_FAILURES:-}" ]]; then
    args+=(--expected-failures "$TIERCHECK_INPUT_EXPECTED_FAILURES")
  fi
  if [[ -n "${TIERCHECK_INPUT_GOVERNANCE_SNAPSHOT:-}" ]]; then
    args+=(--governance-snapshot "$TIERCHECK_INPUT_GOVERNANCE_SNAPSHOT")
  elif [[ "${TIERCHECK_INPUT_GOVERNANCE:-true}" != "true" ]]; then
    args+=(--skip-governance)
  fi
  local formats="${TIERCHECK_INPUT_FORMATS:-}" format
  for format in ${formats//,/ }; do
    args+=(--output "$format")
  done

  local code=0
  tier-check "${args[@]}" || code=$?
  output exit-code "$code"
  output report-dir "$out"
  if [[ ! -f "$out/scorecard.json" ]]; then
    # Bad input (exit 2) or a crash: nothing was measured, so there is nothing to summarise.
    echo "tiercheck: no scorecard was written (exit $code)" >&2
    return "$code"
  fi
  if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    cat "$out/scorecard.md" >>"$GITHUB_STEP_SUMMARY"
  fi

  local facts
  facts="$(python3 - "$out/scorecard.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
tier = doc["implied_tier"]
print(tier["tier"], tier["sep1730"]["tier"],
      doc["checks"]["conformance"]["pass_rate"], doc["checks"]["client_conformance"]["pass_rate"])
PY
)"
  local tier sep server client
  read -r tier sep server client <<<"$facts"
  output tier "$tier"
  output sep1730-tier "$sep"
  output server-pass-rate "$server"
  output client-pass-rate "$client"
  echo "tiercheck: implied Tier $tier (SEP-1730: Tier $sep), exit $code" >&2

  case "${TIERCHECK_INPUT_FAIL_ON:-exit-code}" in
    never) return 0 ;;
    exit-code) return "$code" ;;
    tier-1) [[ "$tier" == 1 ]] || return 1 ;;
    tier-2) [[ "$tier" != 3 ]] || return 1 ;;
    *)
      echo "tiercheck: unknown fail-on '${TIERCHECK_INPUT_FAIL_ON}' (exit-code, tier-1, tier-2, never)" >&2
      return 2
      ;;
  esac
}

case "${1:-}" in
  install) install ;;
  assess) assess ;;
  *)
    echo "usage: $0 install|assess" >&2
    exit 2
    ;;
esac
