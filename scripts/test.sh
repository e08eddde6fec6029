#!/usr/bin/env bash
# Runs every test of godot-mcp: the one command the README gives.
#
# Most tests need only Go. Some drive real outside parts, and this script
# installs them where it can before running `go test`:
#   - Node packages (scripts/node): the official MCP TypeScript SDK client and
#     the Godot 4.6 web runtime, through npm;
#   - Debian's chromium (runs that engine headless) and godot3-server (a real
#     Godot 3 binary for the runtime toolset), through apt-get when run as root.
# What it cannot install it names at the start. Locally the tests that need it
# then skip, saying why; in CI (CI=true) they fail instead, so a missing part
# never passes unnoticed.
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
note() { printf '%s\n' "test.sh: $*" >&2; }

# Node packages.
if command -v npm >/dev/null 2>&1; then
	if [ ! -d scripts/node/node_modules ] || [ scripts/node/package-lock.json -nt scripts/node/node_modules ]; then
		note "installing Node packages into scripts/node (npm ci)"
		(cd scripts/node && npm ci --no-audit --no-fund --ignore-scripts >/dev/null) || missing+=("Node packages in scripts/node (npm ci failed)")
	fi
else
	missing+=("Node.js and npm (install them, then re-run)")
fi

# Debian packages: install when we may, otherwise say so.
apt_install() {
	local pkg=$1 bin=$2
	command -v "$bin" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		note "installing $pkg (apt-get)"
		if [ -z "${apt_updated:-}" ]; then apt-get update -qq >/dev/null 2>&1; apt_updated=1; fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 || true
	fi
	command -v "$bin" >/dev/null 2>&1 || missing+=("$bin (Debian package $pkg: sudo apt-get install $pkg)")
}
apt_install chromium chromium
apt_install godot3-server godot3-server

if [ ${#missing[@]} -gt 0 ]; then
	note "could not install:"
	for m in "${missing[@]}"; do note "  - $m"; done
	if [ "${CI:-}" = true ]; then
		note "tests that need these will fail (CI=true)"
	else
		note "tests that need these will be skipped, each saying why"
	fi
fi

exec go test -race ./... ./sdk/... ./examples/todo-toolset/... "$@"
