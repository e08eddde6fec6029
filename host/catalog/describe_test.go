package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

// A binary that backgrounds a child and exits normally must not leave that
// child running: listing toolsets never keeps a process alive.
func TestDescribeLeavesNoBackgroundChild(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	script := `#!/bin/sh
sleep 313 >/dev/null 2>&1 </dev/null &
echo $! > ` + pidFile + `
echo '{"name":"bg","version":"1.0.0","description":"Backgrounds a child.","tools":[]}'
`
	bin := filepath.Join(dir, BinaryPrefix+"bg")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Describe(context.Background(), bin, 10*time.Second, nil); err != nil {
		t.Fatalf("Describe: %v", err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !testplugins.WaitDead(pid, 2*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the child %d the binary backgrounded is still running after --describe", pid)
	}
}
