#!/usr/bin/env bash
# Final-answer evaluation of every model's predictions (the reference
# scripts/evaluate_final_answer.sh): with judges, `m3 eval final` writes
# results/<model>/taskcompletion.json (resumable); without judges it writes the deterministic
# proxies to results/<model>/final_proxy.json. Then the report is rebuilt.
#
# Environment:
#   M3_MODELS        models to evaluate (space- or comma-separated); default: every
#                    <results>/*_test_mcp_fuzzy.json found
#   GT_PATH          ground truth; default json/test_mcp_GT.json, else json/m3_local_GT.json
#   PRED_DIR         where predictions are read (default: $M3_RESULTS_DIR)
#   M3_RESULTS_DIR   where outputs are written: a run folder (default: results/latest, the last
#                    finished run, else results)
#   M3_JUDGES        comma-separated provider:model judges, or "default" for the reference's four
#                    (openai:gpt-5-mini,gemini:gemini-2.5-flash,deepseek:deepseek-chat,
#                    xai:grok-4-fast-reasoning); unset: proxies only, clearly labelled as such
#   M3_SAVE_DIR      where the report is written (default: the run folder's save/, else save)
#   M3_SKIP_REPORT   set to 1 to skip the report step
# Extra arguments are passed to every `m3 eval final` (e.g. --proxy, --lenient, --concurrency 4).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

m3_results_dirs
pred_dir="${PRED_DIR:-$results_dir}"

m3_resolve_gt evaluate_final_answer.sh


judge_args=()
if [[ -n "${M3_JUDGES:-}" ]]; then
  judge_args=(--judges "$M3_JUDGES")
else
  echo "evaluate_final_answer.sh: M3_JUDGES is not set: computing deterministic proxies (final_proxy.json), not judge scores" >&2
fi

m3_model_list evaluate_final_answer.sh "$pred_dir"

evaluated=0
failed=()
for model in "${models[@]}"; do
  pred="$pred_dir/${model}_test_mcp_fuzzy.json"
  if [[ ! -f "$pred" ]]; then
    echo "evaluate_final_answer.sh: skipping $model: no predictions at $pred" >&2
    continue
  fi
  echo "evaluate_final_answer.sh: $model (GT $gt_path)" >&2
  if m3 eval final --gt "$gt_path" --pred "$pred" \
    --out "$results_dir/$model/taskcompletion.json" --proxy-out "$results_dir/$model/final_proxy.json" \
    ${judge_args[@]+"${judge_args[@]}"} "$@"; then
    evaluated=$((evaluated + 1))
  else
    failed+=("$model")
  fi
done

if [[ "${M3_SKIP_REPORT:-0}" != "1" && $evaluated -gt 0 ]]; then
  m3 report --results "$results_dir" --save "$save_dir" --gt "$gt_path"
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_final_answer.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
echo "evaluate_final_answer.sh: evaluated $evaluated model(s)" >&2
