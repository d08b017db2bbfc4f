#!/usr/bin/env bash
# A regression gate over repeated trials: runs the baseline and the candidate model k times over
# the task suite (each batch in its own folder under results/batches/, so trends keep a history),
# scores every trial with the step layer, prints the pass rates with their intervals and gates the
# candidate against the baseline. With no knobs this is the embedded default: the oracle replay as
# baseline and the seeded noisy oracle as candidate over the bundled suite (no key, no network).
#
#   bash scripts/trials_gate.sh
#   M3_CANDIDATE=openai:gpt-4o M3_BASELINE=openai:gpt-4o-mini M3_TRIALS=5 bash scripts/trials_gate.sh
#
# Knobs: M3_BASELINE, M3_CANDIDATE, M3_TRIALS (3), M3_TASKS, M3_GT, M3_GATE_METRIC (pass),
# M3_MAX_DROP (1: report only), M3_MIN_PASS_RATE (unset), M3_BATCH_ID (a timestamp),
# M3_CONFIG (mcp_servers.json), M3_SERVERS (space-separated subset of its servers; default all),
# M3_BATCH_ROOT (results/batches), M3_STORE (results/m3bench.sqlite), M3_SAVE (save).
# M3_BASELINE_BATCH: an evaluated baseline batch (its .batch.json or folder, from an earlier run of
# this script) to gate against instead of running the baseline again.
# Writes <batch id>-gate.json beside the batches; with GITHUB_OUTPUT set, adds pass_rate,
# gate_passed and report (that gate file) to the step outputs. Exit status: the gate's (0 pass,
# 1 fail, 2 bad input); a failing run or evaluation exits with its own non-zero status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

BASELINE="${M3_BASELINE:-replay:gt}"
CANDIDATE="${M3_CANDIDATE:-replay:noisy}"
TRIALS="${M3_TRIALS:-3}"
if [[ -f json/m3_local_tasks.json ]]; then
  TASKS="${M3_TASKS:-json/m3_local_tasks.json}" GT="${M3_GT:-json/m3_local_GT.json}"
else
  TASKS="${M3_TASKS:-test/fixtures/tasks/math-gt.json}" GT="${M3_GT:-test/fixtures/tasks/math-gt.json}"
fi
ID="${M3_BATCH_ID:-$(date -u +%Y%m%d-%H%M%S)}"
ROOT="${M3_BATCH_ROOT:-results/batches}"
STORE="${M3_STORE:-results/m3bench.sqlite}"
run_args=(--config "${M3_CONFIG:-mcp_servers.json}")
# shellcheck disable=SC2206 # a space-separated list of server names, split on purpose
[[ -n "${M3_SERVERS:-}" ]] && run_args+=(--servers ${M3_SERVERS})

# Prints the batch manifest's path on stdout (the run's and the evaluation's output go to stderr);
# a failing run or evaluation stops the script with its status.
batch() { # <name> <model>
  local dir="$ROOT/$ID-$1"
  m3 run --model "$2" --trials "$TRIALS" --tasks "$TASKS" --gt "$GT" --image-dir "${M3_IMAGE_DIR:-media}" \
    --run-dir "$dir" --store "$STORE" --run-id "$ID-$1" --overwrite "${run_args[@]}" >&2 || return
  m3 eval batch "$dir/$ID-$1.batch.json" --gt "$GT" >&2 || return
  echo "$dir/$ID-$1.batch.json"
}

if [[ -n "${M3_BASELINE_BATCH:-}" ]]; then
  base_file="$M3_BASELINE_BATCH"
else
  base_file=$(batch baseline "$BASELINE")
fi
cand_file=$(batch candidate "$CANDIDATE")
m3 summary --results-dir "$ROOT/$ID-candidate" --save "${M3_SAVE:-save}"
gate_args=(--baseline "$base_file" --candidate "$cand_file" --metric "${M3_GATE_METRIC:-pass}" --max-drop "${M3_MAX_DROP:-1}")
[[ -n "${M3_MIN_PASS_RATE:-}" ]] && gate_args+=(--min-pass-rate "$M3_MIN_PASS_RATE")
status=0
m3 gate "${gate_args[@]}" --json > "$ROOT/$ID-gate.json" || status=$?
m3 gate "${gate_args[@]}" || true
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  node -e '
    const gate = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    process.stdout.write(`pass_rate=${gate.candidatePassRate}\ngate_passed=${gate.passed}\nreport=${process.argv[1]}\n`);
  ' "$ROOT/$ID-gate.json" >> "$GITHUB_OUTPUT"
fi
exit "$status"
