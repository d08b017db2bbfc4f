#!/usr/bin/env bash
# The interactive multimodal web demo (`m3 demo`): chat with a model that uses the MCP tools,
# watch each round live, and try any tool in the playground. Flags are passed through:
#
#   bash scripts/demo.sh --model openai:gpt-4o                 # http://127.0.0.1:8000/
#   bash scripts/demo.sh --model anthropic:claude-sonnet-4-6 --model openai:gpt-4o --port 0
#   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 bash scripts/demo.sh   # first model of that server
#
# Without a model the page still offers the tool playground. Set M3_SKIP_ASSETS=1 to skip
# `m3 assets pull` (the YOLO model and test photos) before starting.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

if [[ "${M3_SKIP_ASSETS:-0}" != 1 ]] && m3_has_command assets; then
  m3 assets pull >&2 || echo "demo.sh: assets could not be pulled; detection tools may be unavailable" >&2
fi

# exec, so SIGINT/SIGTERM reach the demo directly and it shuts the MCP servers down; the CLI runs
# from where lib.sh's `m3` runs it (dist/ when fresh).
exec node "${m3_cli[@]}" demo "$@"
