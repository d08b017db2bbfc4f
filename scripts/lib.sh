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

# The file label of a model spec, as `m3 run` names result files (replay:gt -> replay-gt).
m3_label() {
  node --input-type=module -e "
    const spec = process.argv[1];
    const i = spec.indexOf(':');
    const provider = spec.slice(0, i).toLowerCase(), model = spec.slice(i + 1);
    const base = provider === 'replay' ? 'replay-' + model : (model.split('/').pop() ?? model);
    process.stdout.write(base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+\$/g, '') || provider);
  " "$1"
}
