#!/usr/bin/env bash
# Call-level evaluation of every model's predictions (the reference scripts/evaluate_call.sh):
# for each model with a results/<model>_test_mcp_fuzzy.json, run `m3 eval call` into
# results/<model>/callanalysis.json, then build the report (which draws the call donuts).
#
# Environment:
#   M3_MODELS        models to evaluate (space- or comma-separated); default: every
#                    <results>/*_test_mcp_fuzzy.json found
#   PRED_DIR         where predictions are read (default: $M3_RESULTS_DIR)
#   M3_RESULTS_DIR   where outputs are written: a run folder (default: results/latest, the last
#                    finished run, else results)
#   M3_CATALOG       tool list for unknown-tool and schema checks (m3 servers list-tools --json
#                    output or a catalog file); default the run folder's tools_catalog.json (written
#                    by `m3 run`), else $M3_SAVE_DIR/mcp_tools_with_desc.json if present
#   M3_CALL_JUDGE    provider:model of the LLM judge for calls the rules cannot decide;
#                    unset: those calls get the documented rule fallback
#   M3_FORCE         set to 1 to re-evaluate models whose callanalysis.json exists
#   M3_SAVE_DIR      where the report is written (default: the run folder's save/, else save)
#   M3_SKIP_REPORT   set to 1 to skip the report step
# Extra arguments are passed to every `m3 eval call` (e.g. --attempts 5).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

m3_results_dirs
pred_dir="${PRED_DIR:-$results_dir}"


catalog_args=()
if [[ -n "${M3_CATALOG:-}" ]]; then
  if [[ ! -f "$M3_CATALOG" ]]; then
    echo "evaluate_call.sh: M3_CATALOG=$M3_CATALOG does not exist" >&2
    exit 2
  fi
  catalog_args=(--catalog "$M3_CATALOG")
elif [[ -f "$results_dir/tools_catalog.json" ]]; then
  catalog_args=(--catalog "$results_dir/tools_catalog.json")
elif [[ -f "$save_dir/mcp_tools_with_desc.json" ]]; then
  catalog_args=(--catalog "$save_dir/mcp_tools_with_desc.json")
fi
judge_args=()
if [[ -n "${M3_CALL_JUDGE:-}" ]]; then
  judge_args=(--judge "$M3_CALL_JUDGE")
fi

m3_model_list evaluate_call.sh "$pred_dir"

evaluated=0
failed=()
for model in "${models[@]}"; do
  pred="$pred_dir/${model}_test_mcp_fuzzy.json"
  out="$results_dir/$model/callanalysis.json"
  if [[ ! -f "$pred" ]]; then
    echo "evaluate_call.sh: skipping $model: no predictions at $pred" >&2
    continue
  fi
  if [[ -f "$out" && "${M3_FORCE:-0}" != "1" ]]; then
    echo "evaluate_call.sh: skipping $model: $out exists (M3_FORCE=1 to redo)" >&2
    continue
  fi
  echo "evaluate_call.sh: $model" >&2
  if m3 eval call --pred "$pred" --out "$out" ${catalog_args[@]+"${catalog_args[@]}"} ${judge_args[@]+"${judge_args[@]}"} "$@"; then
    evaluated=$((evaluated + 1))
  else
    failed+=("$model")
  fi
done

if [[ "${M3_SKIP_REPORT:-0}" != "1" ]]; then
  m3 report --results "$results_dir" --save "$save_dir" ${catalog_args[@]+"${catalog_args[@]}"}
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_call.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
echo "evaluate_call.sh: evaluated $evaluated model(s)" >&2
