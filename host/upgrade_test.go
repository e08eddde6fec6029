package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// TestHotUpgrade replaces an installed plugin binary while the host
// serves: a new build (here: the same program with bytes appended, so a
// new digest) is swapped in; a broken one is refused and the old plugin
// serves on, with the reason in the health check's problems.
func TestHotUpgrade(t *testing.T) {
	plugins, path, orig := installEcho(t)
	origSum := mustHash(t, path)
	h := upgradeHost(t, Options{PluginsDir: plugins, GodotVersion: "4.5"}, "echo")
	pid := h.Supervisor.Status("echo").PID
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// A new build, renamed into place (Linux refuses writes to a running
	// executable), is swapped in.
	next := append(append([]byte(nil), orig...), []byte("\x00new build")...)
	if err := os.WriteFile(path+".new", next, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	waitUntil("the new binary to serve", func() bool { p := h.Supervisor.Status("echo").PID; return p != 0 && p != pid })
	newPID := h.Supervisor.Status("echo").PID
	if e, _ := h.Catalog.Lookup("echo"); e.SHA256 == "" || e.SHA256 == origSum {
		t.Errorf("catalog entry not refreshed: %+v", e)
	}
	if !testplugins.WaitDead(pid, 10*time.Second) {
		t.Errorf("the old plugin %d still runs", pid)
	}

	// A broken binary, renamed into place as installers do: refused, and
	// the running plugin serves on.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	var problem string
	waitUntil("the refusal to be reported", func() bool {
		for _, p := range h.upgrader.problems() {
			problem = p.Error()
		}
		for _, p := range h.Catalog.Problems() {
			problem = p.Error()
		}
		return problem != ""
	})
	if !strings.Contains(problem, "the old one serves on") {
		t.Errorf("problem %q does not say the old plugin serves on", problem)
	}
	if st := h.Supervisor.Status("echo"); st.PID != newPID {
		t.Errorf("after the refused binary: %+v, want pid %d serving", st, newPID)
	}
}

func mustHash(t *testing.T, path string) string {
	t.Helper()
	sum, err := catalog.HashFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestHotUpgradeWithLockFile: with a lock file, a replaced binary is
// refused (the old one serves on) and the message says to pin it; after
// `plugins lock` (a new lock file) the host swaps it in by itself.
func TestHotUpgradeWithLockFile(t *testing.T) {
	plugins, path, orig := installEcho(t)
	cache := t.TempDir()
	lock := func() {
		t.Helper()
		c, err := catalog.Open(catalog.Options{Dir: plugins, IgnoreLock: true, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		if err := catalog.WriteLock(c.LockPath(), c.Lock()); err != nil {
			t.Fatal(err)
		}
	}
	lock()
	h := upgradeHost(t, Options{PluginsDir: plugins, GodotVersion: "4.5", CatalogCacheDir: cache}, "echo")
	pid := h.Supervisor.Status("echo").PID

	next := append(append([]byte(nil), orig...), []byte("\x00new build")...)
	if err := os.WriteFile(path+".new", next, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	var problem string
	for problem == "" {
		for _, p := range h.Catalog.Problems() {
			problem = p.Error()
		}
		if time.Now().After(deadline) {
			t.Fatal("the unpinned binary was not reported")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(problem, `run "godot-mcp plugins lock"`) || !strings.Contains(problem, "the old one serves on") || strings.Contains(problem, "restart the host") {
		t.Errorf("problem = %q", problem)
	}
	if got := h.Supervisor.Status("echo").PID; got != pid {
		t.Fatalf("an unpinned binary replaced the running plugin: pid %d, was %d", got, pid)
	}

	lock() // the operator pins the new binary
	for p := h.Supervisor.Status("echo").PID; p == pid || p == 0; p = h.Supervisor.Status("echo").PID {
		if time.Now().After(deadline.Add(20 * time.Second)) {
			t.Fatalf("the pinned binary was not swapped in (problems %v)", h.Catalog.Problems())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ps := h.Catalog.Problems(); len(ps) != 0 {
		t.Errorf("problems left after the upgrade: %v", ps)
	}
}

// installEcho builds the echo test plugin and installs it in a new plugins
// directory; it returns the directory, the installed binary's path and its
// bytes (the base of a "new build").
func installEcho(t *testing.T) (plugins, path string, binary []byte) {
	t.Helper()
	bins, err := testplugins.Build(t.TempDir(), "echo")
	if err != nil {
		t.Fatal(err)
	}
	plugins = t.TempDir()
	path = filepath.Join(plugins, catalog.BinaryPrefix+"echo")
	binary, err = os.ReadFile(bins["echo"])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, binary, 0o755); err != nil {
		t.Fatal(err)
	}
	return plugins, path, binary
}

// upgradeHost starts the host the hot-upgrade tests use: opts with a test
// version, no seeding, a private catalog cache unless opts names one, and
// a plugin watch every 20ms; toolset is enabled. The host closes when the
// test ends.
func upgradeHost(t *testing.T, opts Options, toolset string) *Host {
	t.Helper()
	opts.Version, opts.NoSeed, opts.WatchInterval = "test", true, 20*time.Millisecond
	if opts.CatalogCacheDir == "" {
		opts.CatalogCacheDir = t.TempDir()
	}
	ctx := context.Background()
	h, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	if _, err := h.Gate.Enable(ctx, gate.Request{Toolsets: []string{toolset}, By: "test"}); err != nil {
		t.Fatal(err)
	}
	return h
}
