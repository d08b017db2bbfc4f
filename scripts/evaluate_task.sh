#!/usr/bin/env bash
# Task-level evaluation of every model's predictions: for each model with a
# results/<model>_test_mcp_fuzzy.json, run `m3 eval task` into results/<model>/task_eval.json and
# task_eval.csv (rule evaluators, precise answers, task success, the tutorial's and MCP-RADAR's
# metrics per tier and domain, the error taxonomy of failed tasks), then build the report. Run it
# after evaluate_step.sh and evaluate_call.sh: it reuses their alignment and call labels (and
# computes them itself when they are missing).
#
# Environment:
#   M3_MODELS        models to evaluate (space- or comma-separated); default: every
#                    <results>/*_test_mcp_fuzzy.json found
#   GT_PATH          ground truth; default json/test_mcp_GT.json, else json/m3_local_GT.json
#   M3_TASKS         task file: scores only its ids, and supplies evaluators / answers the GT lacks
#   PRED_DIR         where predictions are read (default: $M3_RESULTS_DIR)
#   M3_RESULTS_DIR   where outputs are written: a run folder (default: results/latest, the last
#                    finished run, else results)
#   M3_CATALOG       tool list for classifying calls when a model has no callanalysis.json
#   M3_TASK_JUDGE    provider:model of the LLM judge for failed tasks the taxonomy rules cannot
#                    label; unset: those stay "undetermined"
#   M3_SAVE_DIR      where the report is written (default: the run folder's save/, else save)
#   M3_SKIP_REPORT   set to 1 to skip the report step
# Extra arguments are passed to every `m3 eval task` (e.g. --domain type).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

m3_results_dirs
pred_dir="${PRED_DIR:-$results_dir}"

m3_resolve_gt evaluate_task.sh

extra_args=()
if [[ -n "${M3_TASKS:-}" ]]; then
  if [[ ! -f "$M3_TASKS" ]]; then
    echo "evaluate_task.sh: M3_TASKS=$M3_TASKS does not exist" >&2
    exit 2
  fi
  extra_args+=(--tasks "$M3_TASKS")
fi
if [[ -n "${M3_CATALOG:-}" && -f "$M3_CATALOG" ]]; then
  extra_args+=(--catalog "$M3_CATALOG")
fi
if [[ -n "${M3_TASK_JUDGE:-}" ]]; then
  extra_args+=(--judge "$M3_TASK_JUDGE")
fi

m3_model_list evaluate_task.sh "$pred_dir"

evaluated=0
failed=()
for model in "${models[@]}"; do
  pred="$pred_dir/${model}_test_mcp_fuzzy.json"
  if [[ ! -f "$pred" ]]; then
    echo "evaluate_task.sh: skipping $model: no predictions at $pred" >&2
    continue
  fi
  echo "evaluate_task.sh: $model (GT $gt_path)" >&2
  if m3 eval task --gt "$gt_path" --pred "$pred" --out "$results_dir/$model" \
    --step-results "$results_dir/$model/results_eval.json" --calls "$results_dir/$model/callanalysis.json" \
    ${extra_args[@]+"${extra_args[@]}"} "$@"; then
    evaluated=$((evaluated + 1))
  else
    failed+=("$model")
  fi
done

if [[ "${M3_SKIP_REPORT:-0}" != "1" && $evaluated -gt 0 ]]; then
  m3 report --results "$results_dir" --save "$save_dir" --gt "$gt_path"
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_task.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
echo "evaluate_task.sh: evaluated $evaluated model(s)" >&2
