# Shared helpers for the scripts in this folder (sourced, not run).
# `m3` runs the CLI as the host runs our servers (src/config/built-servers.ts): the compiled
# dist/src/cli/main.js when `npm run build` wrote it after the last change to any .ts file under
# src/ and servers/, else the source through tsx (which costs 2-3x the CPU of every start, and
# the scripts start m3 many times). An edit after the build makes it stale, so an edited checkout
# never runs old code. M3_USE_DIST=1 forces dist/, M3_USE_DIST=0 the source. Decided once here.

# `find -newer` lists a source modified strictly after the build: the same comparison as
# built-servers.ts (stale when the build is older than the newest .ts; a tie counts as fresh),
# over the same folders, node_modules skipped as there.
m3_dist_is_fresh() {
  [[ -f dist/src/cli/main.js ]] &&
    [[ -z "$(find src servers -name node_modules -prune -o -name '*.ts' -newer dist/src/cli/main.js -print -quit 2>/dev/null)" ]]
}
case "${M3_USE_DIST:-}" in
  1) m3_runs_from=dist ;;
  0) m3_runs_from=source ;;
  *) if m3_dist_is_fresh; then m3_runs_from=dist; else m3_runs_from=source; fi ;;
esac
# dist/ mirrors the source tree, .ts -> .js: `m3_code <path without extension>` names a module.
if [[ $m3_runs_from == dist ]]; then
  m3_loader=()
  m3_code() { echo "./dist/$1.js"; }
else
  m3_loader=(--import tsx)
  m3_code() { echo "./$1.ts"; }
fi
m3_cli=("${m3_loader[@]}" "$(m3_code src/cli/main)")

# `node "${m3_cli[@]}" <args>` is the CLI; demo.sh execs it the same way.
m3() {
  node "${m3_cli[@]}" "$@"
}

# True when `m3 <name>` exists (scripts degrade gracefully while commands are being added).
# A name in the command table of the program m3 runs (src/cli/program.ts's `names: [...]`, the
# one place a command is added) answers without starting the CLI: `m3 --help` loads every command
# module (~1 CPU-s, once per script run). Any other name is asked of `m3 --help` itself, so a
# table this grep does not read never hides a command (test/scripts/lib-runtime.test.ts).
m3_has_command() {
  local table
  table="$(m3_code src/cli/program)"
  if [[ -f "$table" ]] && grep -qE "names: \[[^]]*['\"]$1['\"]" "$table"; then
    return 0
  fi
  m3 --help 2>/dev/null | grep -qE "^  $1( |$)"
}

# The file label of a model spec, as `m3 run` names result files (replay:gt -> replay-gt):
# asks the same modelLabel() the runner uses, so the two can never disagree (from where `m3` runs).
m3_label() {
  node "${m3_loader[@]}" --input-type=module \
    -e "import { modelLabel } from '$(m3_code src/llm/registry)'; process.stdout.write(modelLabel(process.argv[1]));" "$1"
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
