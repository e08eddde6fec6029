package bridge_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "godot-mcp", "bridge-token")
	if _, ok, err := bridge.ReadTokenFile(file); ok || err != nil {
		t.Fatalf("no file: ok %v err %v", ok, err)
	}
	// Several first calls at once agree on one token.
	var wg sync.WaitGroup
	toks := make([]string, 8)
	for i := range toks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok, err := bridge.EnsureTokenFile(file, false)
			if err != nil {
				t.Error(err)
			}
			toks[i] = tok
		}()
	}
	wg.Wait()
	for _, tok := range toks {
		if tok != toks[0] || len(tok) != 64 {
			t.Fatalf("tokens %q", toks)
		}
	}
	if tok, ok, err := bridge.ReadTokenFile(file); !ok || err != nil || tok != toks[0] {
		t.Fatalf("read back %q %v %v", tok, ok, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "godot-mcp", ".bridge-token-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	if runtime.GOOS == "windows" {
		return
	}
	for _, c := range []struct {
		name    string
		content string
		mode    os.FileMode
		want    string
	}{
		{"readable by others", "tok\n", 0o644, "chmod 600"},
		{"readable by the group", "tok\n", 0o640, "chmod 600"},
		{"empty", "\n", 0o600, "--reset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "bridge-token")
			if err := os.WriteFile(f, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(f, c.mode); err != nil {
				t.Fatal(err)
			}
			_, _, err := bridge.ReadTokenFile(f)
			if err == nil || !strings.HasPrefix(err.Error(), "PRECONDITION_FAILED: ") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v", err)
			}
			// --reset writes a private one over it.
			tok, err := bridge.EnsureTokenFile(f, true)
			if err != nil || len(tok) != 64 {
				t.Fatalf("reset: %q %v", tok, err)
			}
			if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
				t.Fatalf("mode after reset %v", fi.Mode())
			}
		})
	}
}

// With the per-install token, every refusal says exactly how to pass it.
func TestRefusalsSayHowToPassTheFileToken(t *testing.T) {
	const fix = `GODOT_MCP_BRIDGE_TOKEN="$(godot-mcp bridge-token)"`
	r := newRig(t, bridge.Options{Token: "file-token", TokenFile: "/home/u/.config/godot-mcp/bridge-token"})
	if st := r.b.Status(); !st.AuthRequired || st.TokenFile == "" {
		t.Fatalf("status %+v", st)
	}
	wrong := r.addon(fakeaddon.Options{Token: "stale"})
	waitFor(t, "the refusal notice", func() bool { return len(wrong.Notices()) > 0 })
	if n := wrong.Notices()[0]; n.Required != "bridge_token" || !strings.Contains(n.Hint, fix) || !strings.Contains(n.Hint, "bridge-token") {
		t.Fatalf("notice %+v", n)
	}
	wrong.Close()
	r.addon(fakeaddon.Options{})
	waitFor(t, "the silent close", func() bool {
		for _, e := range r.ev.of(events.PeerRefused) {
			if e.Fields["reason"] == "no_token" {
				return true
			}
		}
		return false
	})
	for _, e := range r.ev.of(events.PeerRefused) {
		if !strings.Contains(e.Message, fix) {
			t.Errorf("refusal %q does not say how to pass the token", e.Message)
		}
	}
	if !strings.Contains(r.log.String(), fix) || strings.Contains(r.log.String(), "file-token") {
		t.Errorf("log:\n%s", r.log.String())
	}
}
