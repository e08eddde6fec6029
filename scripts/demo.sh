#!/usr/bin/env bash
# Runs godot-mcp on the bundled demo project (examples/demo); no Godot editor
# needed. Builds the host and the bundled toolsets into ./bin, shows what is
# installed, runs one tool the way an operator would, then serves MCP over
# streamable HTTP until Ctrl-C. PORT picks the port (default 8765).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8765}
project=examples/demo

./scripts/build.sh bin

echo
echo "== Installed toolsets (godot-mcp plugins list)"
bin/godot-mcp plugins list --plugins-dir bin

echo
echo "== One tool, run as an operator (godot-mcp call godot_todo_list)"
bin/godot-mcp call godot_todo_list --project "$project" --plugins-dir bin

echo
echo "== Serving MCP at http://127.0.0.1:$port/mcp for the project $project"
echo "   Connect a client, e.g.: claude mcp add --transport http godot http://127.0.0.1:$port/mcp"
echo "   Stop with Ctrl-C."
exec bin/godot-mcp serve --project "$project" --plugins-dir bin --http "127.0.0.1:$port"
