#!/usr/bin/env bash
# Runs the benchmark: predictions for every model in M3_MODELS over the task suite, then (unless
# M3_SKIP_EVAL=1) the evaluation layers (step, call, final answer, task level) and the report.
# With no key and no arguments this is the embedded default: the replay oracle and the seeded
# noisy oracle over the bundled suite.
#
#   bash scripts/benchmark_fuzzy.sh                     # embedded default
#   M3_MODELS="openai:gpt-4o" bash scripts/benchmark_fuzzy.sh
#   bash scripts/benchmark_fuzzy.sh --run-id nightly       # extra flags go to `m3 run`
#   bash scripts/benchmark_fuzzy.sh --resume nightly
#
# Every invocation is one run with its own folder, $M3_RESULTS_DIR/runs/<run-id>/ (predictions,
# evaluations, report, figures); $M3_RESULTS_DIR/latest points at it once it finished. A second
# invocation never overwrites the first. Two invocations at once into one results folder should
# each pass --run-id (the evaluation follows `latest`).
#
# Knobs (environment): M3_MODELS, M3_TASKS, M3_GT, M3_IMAGE_DIR, M3_MAX_STEP, M3_MAX_CONCURRENT,
# M3_CONCURRENCY, M3_TOP_TOOLS, M3_MAX_NEW_TOKENS, M3_SKIP_ASSETS=1, M3_SKIP_EVAL=1, M3_RESULTS_DIR,
# M3_TASK_JUDGE (LLM judge for failed tasks the task-level taxonomy rules cannot label).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

MODELS="${M3_MODELS:-replay:gt replay:noisy}"
if [[ -f json/m3_local_tasks.json ]]; then
  DEFAULT_TASKS=json/m3_local_tasks.json DEFAULT_GT=json/m3_local_GT.json
else
  DEFAULT_TASKS=test/fixtures/tasks/math-gt.json DEFAULT_GT=test/fixtures/tasks/math-gt.json
fi
TASKS="${M3_TASKS:-$DEFAULT_TASKS}"
GT="${M3_GT:-$DEFAULT_GT}"
RESULTS_DIR="${M3_RESULTS_DIR:-results}"

if [[ "${M3_SKIP_ASSETS:-0}" != 1 ]] && m3_has_command assets; then
  m3 assets pull
fi

# Replay models need ground truth; real models get it too so the server check can warn early.
read -r -a model_list <<< "$MODELS"
# `m3 run` exits 3 when a model's every task failed for infrastructure reasons; the other models
# are still evaluated and this script exits non-zero at the end. Any other failure stops here.
run_status=0
m3 run --model "${model_list[@]}" --tasks "$TASKS" --gt "$GT" \
  --image-dir "${M3_IMAGE_DIR:-media}" \
  --max-step "${M3_MAX_STEP:-6}" --max-concurrent "${M3_MAX_CONCURRENT:-10}" \
  --concurrency "${M3_CONCURRENCY:-5}" --top-tools "${M3_TOP_TOOLS:-0}" \
  --max-new-tokens "${M3_MAX_NEW_TOKENS:-8192}" --results-dir "$RESULTS_DIR" \
  "$@" || run_status=$?
if [[ $run_status -ne 0 && $run_status -ne 3 ]]; then
  exit "$run_status"
fi

if [[ "${M3_SKIP_EVAL:-0}" == 1 ]]; then
  exit "$run_status"
fi
# The run's own folder: the evaluation layers, the report and the summary read and write there.
if [[ ! -L "$RESULTS_DIR/latest" ]]; then
  echo "benchmark_fuzzy.sh: $RESULTS_DIR/latest does not name a finished run" >&2
  exit 1
fi
RUN_DIR="$RESULTS_DIR/runs/$(basename "$(readlink "$RESULTS_DIR/latest")")"
SAVE_DIR="${M3_SAVE_DIR:-$RUN_DIR/save}"
# The evaluation scripts take result-file labels (replay:gt -> replay-gt), like the reference's
# model lists. A model whose prediction file holds no record is not evaluated: with coverage on,
# every task would count as an empty trajectory and print a score of 0 nobody earned.
# With --trials k > 1 a model's files are <label>.trial-<t>_test_mcp_fuzzy.json, one per trial;
# each trial is evaluated under its own label (the summary and report group them again).
labels=""
unscored=()
shopt -s nullglob
for model in "${model_list[@]}"; do
  label="$(m3_label "$model")"
  scored=0
  for file in "$RUN_DIR/${label}_test_mcp_fuzzy.json" "$RUN_DIR/${label}".trial-*_test_mcp_fuzzy.json; do
    if m3_has_predictions "$file"; then
      name="$(basename "$file")"
      labels+="${name%_test_mcp_fuzzy.json} "
      scored=1
    fi
  done
  if [[ $scored == 0 ]]; then
    unscored+=("$label")
  fi
done
shopt -u nullglob
if [[ -z "$labels" ]]; then
  echo "benchmark_fuzzy.sh: nothing was scored: no model produced a prediction (${unscored[*]}); see the run's .manifest.json for each task's error" >&2
  exit 3
fi
# The task level (evaluate_task.sh) runs last: it reads the step alignment and the call labels.
for stage in step call final_answer task; do
  if [[ -f "scripts/evaluate_${stage}.sh" ]]; then
    M3_MODELS="$labels" GT_PATH="$GT" M3_TASKS="$TASKS" M3_RESULTS_DIR="$RUN_DIR" M3_CATALOG="$RUN_DIR/tools_catalog.json" \
      M3_SAVE_DIR="$SAVE_DIR" M3_SKIP_REPORT=1 M3_FORCE=1 bash "scripts/evaluate_${stage}.sh"
  fi
done
if m3_has_command report; then
  m3 report --results-dir "$RUN_DIR" --save "$SAVE_DIR" --gt "$GT" \
    --catalog "$RUN_DIR/tools_catalog.json" --models "$(echo $labels | tr ' ' ',')"
fi
echo
m3 summary --results-dir "$RUN_DIR" --save "$SAVE_DIR" --models "$(echo $labels | tr ' ' ',')"
if [[ ${#unscored[@]} -gt 0 ]]; then
  echo "benchmark_fuzzy.sh: not scored (no prediction): ${unscored[*]}" >&2
  exit 3
fi
