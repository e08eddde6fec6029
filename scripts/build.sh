#!/usr/bin/env bash
# Builds the godot-mcp host and the bundled toolset plugins into ./bin (or
# the directory given as $1). Plugins must be named godot-mcp-toolset-<name>
# and sit beside the host binary (or in --plugins-dir) to be found.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bin}
mkdir -p "$out"
out=$(cd "$out" && pwd)
flags=(-trimpath -ldflags "-s -w")

go build "${flags[@]}" -o "$out/godot-mcp" ./cmd/godot-mcp
for dir in plugins/*/; do
	name=$(basename "$dir")
	go build "${flags[@]}" -o "$out/godot-mcp-toolset-$name" "./$dir"
done
# The example is its own module, built exactly as a third party would.
(cd examples/todo-toolset && go build "${flags[@]}" -o "$out/godot-mcp-toolset-todo" .)
echo "built into $out:" >&2
ls -1 "$out" >&2
