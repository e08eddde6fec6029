//go:build unix

package sdk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckLifelineAcceptsOnlyAnOpenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := checkLifeline(int(r.Fd())); err != nil {
		t.Errorf("a pipe was refused: %v", err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "not-a-pipe"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := checkLifeline(int(f.Fd())); err == nil || !strings.Contains(err.Error(), "not a pipe") {
		t.Errorf("a regular file: %v, want \"not a pipe\"", err)
	}
	if err := checkLifeline(987654); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("a closed descriptor: %v, want \"not open\"", err)
	}
}
