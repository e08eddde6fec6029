#!/usr/bin/env bash
# Runs godot-mcp on the bundled demo project (examples/demo); no Godot editor
# needed. Builds the host and the bundled toolsets into ./bin, shows what is
# installed, runs tools the way an operator would (a headless scene edit and
# its undo among them), then serves MCP over streamable HTTP until Ctrl-C.
# PORT picks the port (default 8765).
#
# For tests: GODOT_MCP_DEMO_BIN names a directory of already built binaries
# (the build is skipped), GODOT_MCP_DEMO_PROJECT another project to run on,
# and GODOT_MCP_DEMO_SERVE=0 stops before serving.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8765}
project=${GODOT_MCP_DEMO_PROJECT:-examples/demo}
bin=${GODOT_MCP_DEMO_BIN:-bin}

if [ -z "${GODOT_MCP_DEMO_BIN:-}" ]; then
	./scripts/build.sh bin
fi

echo
echo "== Installed toolsets (godot-mcp plugins list)"
"$bin/godot-mcp" plugins list --plugins-dir "$bin"

echo
echo "== One tool, run as an operator (godot-mcp call godot_todo_list)"
"$bin/godot-mcp" call godot_todo_list --project "$project" --plugins-dir "$bin"

# A headless scene edit: scene_edit changes the .tscn itself (no editor),
# touching only the lines Godot would write, as one undoable action per call.
scene=scenes/main.tscn
backup=$(mktemp)
cp "$project/$scene" "$backup"
# Whatever happens, the demo leaves the project as it found it.
trap 'cp "$backup" "$project/$scene"; rm -f "$backup"' EXIT
call() { "$bin/godot-mcp" call "$@" --project "$project" --plugins-dir "$bin"; }

echo
echo "== A headless scene edit, previewed first (godot_scene_edit_create_node --dry-run)"
add='{"scene": "res://'$scene'", "node_type": "Sprite2D", "parent_path": "Player", "node_name": "Badge"}'
call godot_scene_edit_create_node --dry-run --args "$add"

echo
echo "== ... then made, and a property set (two calls, two undoable actions)"
call godot_scene_edit_create_node --args "$add"
call godot_scene_edit_set_node_property --args '{"scene": "res://'$scene'", "node_path": "Player/Badge", "property": "position", "value": {"x": 0, "y": -40}}'
echo
echo "-- what changed in $scene:"
diff -u --label "$scene (before)" --label "$scene (after)" "$backup" "$project/$scene" || true

echo
echo "== Undo both (godot_undo count=2): the file is back, byte for byte"
call godot_undo --args '{"count": 2}'
if cmp -s "$backup" "$project/$scene"; then
	echo "-- $scene is identical to what it was before the edit"
else
	echo "-- $scene differs after the undo" >&2
	exit 1
fi

if [ "${GODOT_MCP_DEMO_SERVE:-1}" = 0 ]; then
	exit 0
fi
echo
echo "== Serving MCP at http://127.0.0.1:$port/mcp for the project $project"
echo "   Connect a client, e.g.: claude mcp add --transport http godot http://127.0.0.1:$port/mcp"
echo "   Stop with Ctrl-C."
rm -f "$backup"
trap - EXIT
exec "$bin/godot-mcp" serve --project "$project" --plugins-dir "$bin" --http "127.0.0.1:$port"
