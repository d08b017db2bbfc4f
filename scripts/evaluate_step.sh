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
#   M3_RESULTS_DIR   where predictions are read and outputs written: a run folder (default:
#                    results/latest, the last finished run, else results)
#   M3_SKIP_REPORT   set to 1 to skip the report step
# Extra arguments are passed to every `m3 eval step` (e.g. --reference-compat, --embedder ...).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

m3_results_dirs

m3_resolve_gt evaluate_step.sh


m3_model_list evaluate_step.sh "$results_dir"

evaluated=0
failed=()
for model in "${models[@]}"; do
  pred="$results_dir/${model}_test_mcp_fuzzy.json"
  if [[ ! -f "$pred" ]]; then
    echo "evaluate_step.sh: skipping $model: no predictions at $pred" >&2
    continue
  fi
  echo "evaluate_step.sh: $model (GT $gt_path)" >&2
  if m3 eval step --gt "$gt_path" --pred "$pred" --output-dir "$results_dir/$model" "$@"; then
    evaluated=$((evaluated + 1))
  else
    failed+=("$model")
  fi
done

if [[ "${M3_SKIP_REPORT:-0}" != "1" && $evaluated -gt 0 ]]; then
  if m3_has_command report; then
    m3 report
  else
    echo "evaluate_step.sh: no \`m3 report\` command in this checkout; skipping the report" >&2
  fi
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_step.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
echo "evaluate_step.sh: evaluated $evaluated model(s)" >&2
