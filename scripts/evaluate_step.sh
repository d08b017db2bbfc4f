#!/usr/bin/env bash
# Step-level evaluation of every model's predictions (the reference scripts/evaluate_step.sh):
# for each model with a results/<model>_test_mcp_fuzzy.json, run `m3 eval step` into
# results/<model>/, then build the report if this checkout has the `m3 report` command.
#
# Environment:
#   M3_MODELS        models to evaluate (space- or comma-separated); default: every
#                    <results>/*_test_mcp_fuzzy.json found
#   GT_PATH          ground truth; default json/test_mcp_GT.json, else the bundled local suite
#                    json/m3_local_GT.json
#   M3_RESULTS_DIR   where predictions are read and outputs written (default: results)
#   M3_SKIP_REPORT   set to 1 to skip the report step
# Extra arguments are passed to every `m3 eval step` (e.g. --reference-compat, --embedder ...).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

results_dir="${M3_RESULTS_DIR:-results}"

if [[ -n "${GT_PATH:-}" ]]; then
  gt_path="$GT_PATH"
elif [[ -f json/test_mcp_GT.json ]]; then
  gt_path="json/test_mcp_GT.json"
elif [[ -f json/m3_local_GT.json ]]; then
  gt_path="json/m3_local_GT.json"
else
  echo "evaluate_step.sh: no ground truth found: put it at json/test_mcp_GT.json (or json/m3_local_GT.json), or set GT_PATH" >&2
  exit 2
fi
if [[ ! -f "$gt_path" ]]; then
  echo "evaluate_step.sh: GT_PATH=$gt_path does not exist" >&2
  exit 2
fi

if [[ "${M3_USE_DIST:-0}" == 1 ]]; then
  m3=(node dist/src/cli/main.js)
else
  m3=(node --import tsx src/cli/main.ts)
fi

models=()
if [[ -n "${M3_MODELS:-}" ]]; then
  read -r -a models <<<"${M3_MODELS//,/ }"
else
  shopt -s nullglob
  for file in "$results_dir"/*_test_mcp_fuzzy.json; do
    name="$(basename "$file")"
    models+=("${name%_test_mcp_fuzzy.json}")
  done
  shopt -u nullglob
fi
if [[ ${#models[@]} -eq 0 ]]; then
  echo "evaluate_step.sh: no predictions found ($results_dir/*_test_mcp_fuzzy.json); run scripts/benchmark_fuzzy.sh first or set M3_MODELS" >&2
  exit 1
fi

evaluated=0
failed=()
for model in "${models[@]}"; do
  pred="$results_dir/${model}_test_mcp_fuzzy.json"
  if [[ ! -f "$pred" ]]; then
    echo "evaluate_step.sh: skipping $model: no predictions at $pred" >&2
    continue
  fi
  echo "evaluate_step.sh: $model (GT $gt_path)" >&2
  if "${m3[@]}" eval step --gt "$gt_path" --pred "$pred" --output-dir "$results_dir/$model" "$@"; then
    evaluated=$((evaluated + 1))
  else
    failed+=("$model")
  fi
done

if [[ "${M3_SKIP_REPORT:-0}" != "1" && $evaluated -gt 0 ]]; then
  if "${m3[@]}" --help 2>/dev/null | grep -Eq '^[[:space:]]+report\b'; then
    "${m3[@]}" report
  else
    echo "evaluate_step.sh: no \`m3 report\` command in this checkout; skipping the report" >&2
  fi
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_step.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
echo "evaluate_step.sh: evaluated $evaluated model(s)" >&2
