// Package testenv finds the outside parts some tests drive — Node packages,
// Chromium, a Godot binary — and decides what a test does when one is
// missing: skip with the reason on a developer's machine, fail in CI
// (CI=true), so a missing install step never passes as green.
//
// scripts/test.sh (the README's test command) installs these parts where it
// can; the functions here only look.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// InCI reports whether the tests run in CI, where a missing part is a
// failure rather than a skip.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing stops the test because an outside part is absent: in CI it fails,
// elsewhere it skips. what names the part, fix says how to get it.
func Missing(t testing.TB, what, fix string) {
	t.Helper()
	msg := what + " is not available; " + fix + " (scripts/test.sh installs it where it can)"
	if InCI() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

var (
	rootOnce sync.Once
	root     string
)

// RepoRoot is the directory holding go.work, found by walking up from the
// working directory (a test's working directory is its package directory).
// It is "" when there is none.
func RepoRoot() string {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
				root = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return
			}
			dir = parent
		}
	})
	return root
}

// NodeModules is scripts/node/node_modules of the checkout, or "" when the
// Node packages are not installed.
func NodeModules() string {
	if r := RepoRoot(); r != "" {
		dir := filepath.Join(r, "scripts", "node", "node_modules")
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return ""
}

// RequireNodePackage returns the directory of an installed Node package
// (e.g. "@modelcontextprotocol/sdk"), or stops the test as Missing says.
func RequireNodePackage(t testing.TB, pkg string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		Missing(t, "node", "install Node.js")
	}
	nm := NodeModules()
	if nm != "" {
		dir := filepath.Join(nm, filepath.FromSlash(pkg))
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
			return dir
		}
	}
	Missing(t, "the Node package "+pkg, "run `npm ci` in scripts/node")
	return ""
}

// RequireBinary returns the path of an executable on PATH, or stops the
// test as Missing says; debPkg is the Debian package that provides it.
func RequireBinary(t testing.TB, name, debPkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name, "install the Debian package "+debPkg)
	}
	return p
}
