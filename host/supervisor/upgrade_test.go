package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// copyBinary copies the test plugin bin to a new file and returns its
// entry under toolset name: a new binary of the same toolset.
func copyBinary(t *testing.T, name, bin string) catalog.Entry {
	t.Helper()
	data, err := os.ReadFile(bins[bin])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), catalog.BinaryPrefix+name)
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	sum, _ := catalog.HashFile(path)
	return catalog.Entry{Name: name, Path: path, SHA256: sum}
}

func TestUpgradeSwapsBetweenCallsAndDrainsTheOldPlugin(t *testing.T) {
	s := newSupervisor(t, Options{})
	ctx := context.Background()
	if err := s.Start(ctx, entry(t, "echo", "echo")); err != nil {
		t.Fatal(err)
	}
	oldPID := pidOf(t, call(t, s, "echo", "pid", struct{}{}))

	// A call in flight on the old plugin when the swap happens finishes
	// there, with its answer.
	var wg sync.WaitGroup
	var slowRes sdk.Result
	var slowErr error
	progressed := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var once sync.Once
		slowRes, slowErr = s.Call(ctx, "echo", CallRequest{Tool: "slow", Args: []byte(`{"steps":40}`)},
			func(Progress) { once.Do(func() { close(progressed) }) })
	}()
	<-progressed

	next := copyBinary(t, "echo", "echo")
	if err := s.Upgrade(ctx, next); err != nil {
		t.Fatalf("Upgrade: %v", err)
	}
	// Every call after the swap is answered by the new plugin.
	newPID := pidOf(t, call(t, s, "echo", "pid", struct{}{}))
	if newPID == oldPID || newPID != s.Status("echo").PID {
		t.Errorf("after the upgrade pid %d, old %d, status %d", newPID, oldPID, s.Status("echo").PID)
	}
	wg.Wait()
	if slowErr != nil || len(slowRes.Content) == 0 {
		t.Fatalf("the call in flight was lost: %v %+v", slowErr, slowRes)
	}
	if !waitDead(oldPID, 10*time.Second) {
		t.Errorf("the old plugin %d still runs after its call finished", oldPID)
	}
	if st := s.Status("echo"); st.State != Running || st.Restarts != 0 {
		t.Errorf("status = %+v", st)
	}
	if k := s.events.kinds(); !slices.Contains(k, "echo:"+EventUpgraded) || slices.Contains(k, "echo:"+EventCrashed) {
		t.Errorf("events = %v", k)
	}
	// A later restart (a crash) runs the new binary.
	_, _ = callErr(s, "echo", "panic", struct{}{})
	res := call(t, s, "echo", "pid", struct{}{})
	if pidOf(t, res) == newPID {
		t.Error("no restart after the crash")
	}
}

func TestBrokenUpgradeLeavesTheOldPluginServing(t *testing.T) {
	s := newSupervisor(t, Options{})
	ctx := context.Background()
	if err := s.Start(ctx, entry(t, "echo", "echo")); err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, call(t, s, "echo", "pid", struct{}{}))
	broken := filepath.Join(t.TempDir(), catalog.BinaryPrefix+"echo")
	if err := os.WriteFile(broken, []byte("#!/bin/sh\necho 'panic: half-written binary' >&2\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := s.Upgrade(ctx, catalog.Entry{Name: "echo", Path: broken})
	se := asError(t, err, sdk.CodePluginStartFailed)
	if !strings.Contains(se.Message, "the old one serves on") {
		t.Errorf("message %q does not say the old plugin serves on", se.Message)
	}
	if got := pidOf(t, call(t, s, "echo", "pid", struct{}{})); got != pid {
		t.Errorf("after a failed upgrade pid %d, want the old %d", got, pid)
	}
	if k := s.events.kinds(); !slices.Contains(k, "echo:"+EventUpgradeFailed) {
		t.Errorf("events = %v", k)
	}
}

func TestUpgradeOfAStoppedToolsetTakesEffectAtItsNextStart(t *testing.T) {
	s := newSupervisor(t, Options{})
	ctx := context.Background()
	next := copyBinary(t, "echo", "echo")
	// Never started: only the entry is kept; Start names its own entry.
	if err := s.Upgrade(ctx, next); err != nil {
		t.Fatal(err)
	}
	if st := s.Status("echo"); st.State != Stopped {
		t.Errorf("status = %+v", st)
	}
}
