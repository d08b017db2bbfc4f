# Shared helpers for the scripts in this folder (sourced, not run).
# `m3` runs the CLI from source through tsx, or from dist/ with M3_USE_DIST=1 (after `npm run
# build`); source is the default so an edited checkout never runs a stale build.
m3() {
  if [[ "${M3_USE_DIST:-0}" == 1 ]]; then
    node dist/src/cli/main.js "$@"
  else
    node --import tsx src/cli/main.ts "$@"
  fi
}

# True when `m3 <name>` exists (scripts degrade gracefully while commands are being added).
m3_has_command() {
  m3 --help 2>/dev/null | grep -qE "^  $1( |$)"
}

# The file label of a model spec, as `m3 run` names result files (replay:gt -> replay-gt):
# asks the same modelLabel() the runner uses, so the two can never disagree.
m3_label() {
  node --import tsx --input-type=module \
    -e "import { modelLabel } from './src/llm/registry.ts'; process.stdout.write(modelLabel(process.argv[1]));" "$1"
}

# True when a prediction file exists and holds at least one record.
m3_has_predictions() {
  [[ -f "$1" ]] && node -e "process.exit(JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')).length > 0 ? 0 : 1)" "$1"
}

# Sets `gt_path` from GT_PATH, else the original GT, else the bundled local suite; exits on failure.
m3_resolve_gt() {
  local script="$1"
  if [[ -n "${GT_PATH:-}" ]]; then
    gt_path="$GT_PATH"
  elif [[ -f json/test_mcp_GT.json ]]; then
    gt_path="json/test_mcp_GT.json"
  elif [[ -f json/m3_local_GT.json ]]; then
    gt_path="json/m3_local_GT.json"
  else
    echo "$script: no ground truth found: put it at json/test_mcp_GT.json (or json/m3_local_GT.json), or set GT_PATH" >&2
    exit 2
  fi
  if [[ ! -f "$gt_path" ]]; then
    echo "$script: GT_PATH=$gt_path does not exist" >&2
    exit 2
  fi
}

# Sets `models` from M3_MODELS (labels, space- or comma-separated), else every
# <pred_dir>/*_test_mcp_fuzzy.json; exits when there is nothing to evaluate.
m3_model_list() {
  local script="$1" pred_dir="$2"
  models=()
  if [[ -n "${M3_MODELS:-}" ]]; then
    read -r -a models <<<"${M3_MODELS//,/ }"
  else
    shopt -s nullglob
    local file name
    for file in "$pred_dir"/*_test_mcp_fuzzy.json; do
      name="$(basename "$file")"
      models+=("${name%_test_mcp_fuzzy.json}")
    done
    shopt -u nullglob
  fi
  if [[ ${#models[@]} -eq 0 ]]; then
    echo "$script: no predictions found ($pred_dir/*_test_mcp_fuzzy.json); run scripts/benchmark_fuzzy.sh first or set M3_MODELS" >&2
    exit 1
  fi
}

# Sets `results_dir` and `save_dir` for the evaluate_*.sh scripts: M3_RESULTS_DIR when set, else
# the run results/latest points at (the last finished `m3 run`), else results/ (a flat folder:
# runs from before run folders, or `m3 export --reference`). A run folder's figures and report go
# into its own save/; a flat folder's into save/. M3_SAVE_DIR overrides.
m3_results_dirs() {
  if [[ -n "${M3_RESULTS_DIR:-}" ]]; then
    results_dir="$M3_RESULTS_DIR"
  elif [[ -d results/latest ]]; then
    results_dir="results/latest"
  else
    results_dir="results"
  fi
  if [[ -d "$results_dir/latest" ]]; then
    results_dir="$results_dir/latest"
  fi
  if [[ -n "${M3_SAVE_DIR:-}" ]]; then
    save_dir="$M3_SAVE_DIR"
  elif compgen -G "$results_dir/*.batch.json" >/dev/null; then
    save_dir="$results_dir/save"
  else
    save_dir="save"
  fi
}
