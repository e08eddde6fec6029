//go:build unix

package sdk_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// ReadRegular reads regular files within its limit and refuses a named
// pipe at once with a *NotRegularError, where os.ReadFile would wait for
// a writer forever.
func TestReadRegularRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	file, fifo := filepath.Join(dir, "a.uid"), filepath.Join(dir, "b.uid")
	if err := os.WriteFile(file, []byte("uid://abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := sdk.ReadRegular(file, 64); err != nil || string(b) != "uid://abc\n" {
		t.Fatalf("regular file: %q, %v", b, err)
	}
	if _, err := sdk.ReadRegular(file, 4); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("over the limit: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := sdk.ReadRegular(fifo, 64); done <- err }()
	select {
	case err := <-done:
		var nr *sdk.NotRegularError
		if !errors.As(err, &nr) || nr.Kind != "named pipe (FIFO)" {
			t.Fatalf("FIFO: %v, want a *NotRegularError naming a named pipe", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadRegular blocked on a FIFO")
	}
	if _, err := sdk.ReadRegular(dir, 64); err == nil || err.Error() != "is a directory" {
		t.Fatalf("directory: %v", err)
	}
}
