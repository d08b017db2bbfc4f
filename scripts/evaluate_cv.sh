#!/usr/bin/env bash
# The CV metrics of every model's predictions (the reference's scripts/evaluate_cv.sh): for each
# model with <results>/<model>_test_mcp_fuzzy.json and each tau_weak, run `m3 eval cv` into
# <results>/results_cv/<model>/ (…/tau_<tau>/ when several taus are given), collect each
# run's headline entry, and merge them into <results>/results_cv/step_eval_result.json (a JSON list,
# entries sorted by model then tau; the reference merges in file-system order).
#
# Environment:
#   M3_MODELS        models to evaluate (space- or comma-separated); default: every
#                    <results>/*_test_mcp_fuzzy.json found
#   M3_TAU_WEAKS     tau_weak values (space- or comma-separated); default 0.6
#   GT_PATH          ground truth; default json/test_mcp_GT.json, else json/m3_local_GT.json
#   M3_RESULTS_DIR   where predictions are read: a run folder (default: results/latest, the last
#                    finished run, else results)
#   M3_CV_DIR        where CV outputs go (default: <results>/results_cv, inside the run folder)
# Extra arguments go to every `m3 eval cv` (e.g. --reference-compat, --embedder BAAI/bge-small-en-v1.5,
# the encoder the reference's script uses; pull it with `m3 assets pull --manifest media/encoders.json`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

m3_results_dirs
cv_dir="${M3_CV_DIR:-$results_dir/results_cv}"
tau_list="${M3_TAU_WEAKS:-0.6}"
read -r -a taus <<<"${tau_list//,/ }"

m3_resolve_gt evaluate_cv.sh
m3_model_list evaluate_cv.sh "$results_dir"

temp_dir="$cv_dir/temp_metrics"
mkdir -p "$temp_dir"
rm -f "$temp_dir"/*.json

evaluated=0
failed=()
for tau in "${taus[@]}"; do
  for model in "${models[@]}"; do
    pred="$results_dir/${model}_test_mcp_fuzzy.json"
    if [[ ! -f "$pred" ]]; then
      echo "evaluate_cv.sh: skipping $model: no predictions at $pred" >&2
      continue
    fi
    out="$cv_dir/$model"
    if [[ ${#taus[@]} -gt 1 ]]; then out="$cv_dir/$model/tau_$tau"; fi
    echo "evaluate_cv.sh: $model, tau_weak $tau (GT $gt_path)" >&2
    if m3 eval cv --gt "$gt_path" --pred "$pred" --output-dir "$out" --tau-weak "$tau" \
      --experiment-name "$model" --save-metrics-to "$temp_dir/${model}_tau_${tau}.json" "$@"; then
      evaluated=$((evaluated + 1))
    else
      failed+=("$model@$tau")
    fi
  done
done

node --input-type=module -e '
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
const [dir, out] = process.argv.slice(1);
const merged = readdirSync(dir).filter((name) => name.endsWith(".json")).sort().flatMap((name) => JSON.parse(readFileSync(`${dir}/${name}`, "utf8")));
writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
' "$temp_dir" "$cv_dir/step_eval_result.json"
echo "evaluate_cv.sh: merged $evaluated result(s) into $cv_dir/step_eval_result.json" >&2

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "evaluate_cv.sh: evaluation failed for: ${failed[*]}" >&2
  exit 1
fi
