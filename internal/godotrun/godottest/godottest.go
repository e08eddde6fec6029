// Package godottest builds small Godot projects for tests that run a real
// Godot binary, and finds that binary the way every such test must: skip
// with the reason on a developer's machine, fail in CI.
package godottest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// RequireGodot3 returns the path of Debian's godot3-server (Godot 3.2), the
// Godot these tests run, or stops the test as testenv.Missing says.
func RequireGodot3(t testing.TB) string {
	t.Helper()
	return testenv.RequireBinary(t, "godot3-server", "godot3-server")
}

// Godot3Project writes a Godot 3 project into a new temporary directory: a
// project.godot whose main scene is res://main.tscn, a main.tscn whose root
// node runs res://main.gd, main.gd with the given source, and any extra
// files (relative path → content). It returns the directory.
func Godot3Project(t testing.TB, mainGD string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"project.godot": "config_version=4\n\n[application]\n\nconfig/name=\"Test\"\nrun/main_scene=\"res://main.tscn\"\n",
		"main.tscn": "[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"res://main.gd\" type=\"Script\" id=1]\n\n" +
			"[node name=\"Main\" type=\"Node\"]\nscript = ExtResource( 1 )\n",
		"main.gd": mainGD,
	}
	for k, v := range extra {
		files[k] = v
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// daemonizingGodot is a stand-in for Godot 3.2 that answers --version and
// --help like godot3-server and, when run on a project (--path DIR),
// double-forks a daemon: a subshell starts `sleep 300` in a session of its
// own (setsid), writes its pid to DIR/daemon.pid and exits, so the daemon
// is neither in the run's process group nor a child of anything the run
// started. Then the fake exits 0, or, when DIR/hang exists, runs until it
// is killed.
const daemonizingGodot = `#!/bin/sh
case "$1" in
--version) echo 3.2.3.stable.fake; exit 0 ;;
--help) echo "  --video-driver <driver>  Video driver ('Dummy')."; exit 0 ;;
esac
dir=.
while [ $# -gt 0 ]; do
  if [ "$1" = --path ]; then dir=$2; fi
  shift
done
( setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > "$dir/daemon.pid.tmp"; mv "$dir/daemon.pid.tmp" "$dir/daemon.pid" )
echo "fake godot started a daemon"
if [ -e "$dir/hang" ]; then
  while :; do sleep 1; done
fi
exit 0
`

// DaemonizingGodot writes the fake Godot described at daemonizingGodot to
// a new temporary directory and returns its path, for GODOT_MCP_GODOT_BIN.
// It needs /bin/sh, setsid and sleep.
func DaemonizingGodot(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "godot")
	if err := os.WriteFile(p, []byte(daemonizingGodot), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// DaemonPID waits up to within for the pid DaemonizingGodot's daemon wrote
// into dir and returns it.
func DaemonPID(t testing.TB, dir string, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		data, err := os.ReadFile(filepath.Join(dir, "daemon.pid"))
		if err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatalf("daemon.pid: %v", err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake Godot wrote no daemon.pid within %s", within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// exportingGodot is a stand-in for Godot 3.2 that answers --version and
// --help like godot3-server and "exports": for --export, --export-debug
// and --export-release PRESET PATH it writes PATH and the .pck beside it
// (as a desktop export does), for --export-pack only PATH. It writes
// nothing else and exits 0.
const exportingGodot = `#!/bin/sh
case "$1" in
--version) echo 3.2.3.stable.fake; exit 0 ;;
--help) echo "  --video-driver <driver>  Video driver ('Dummy')."; exit 0 ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
  --export-pack) printf 'pack of %s\n' "$2" > "$3"; shift 2 ;;
  --export|--export-debug|--export-release) printf 'binary of %s\n' "$2" > "$3"; printf 'pack of %s\n' "$2" > "${3%.*}.pck"; shift 2 ;;
  esac
  shift
done
echo "fake export done"
exit 0
`

// ExportingGodot writes the fake Godot described at exportingGodot to a
// new temporary directory and returns its path, for GODOT_MCP_GODOT_BIN.
func ExportingGodot(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "godot")
	if err := os.WriteFile(p, []byte(exportingGodot), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
