package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBridgeSettings(t *testing.T) {
	dir := t.TempDir()
	withFile := filepath.Join(dir, "with", "bridge-token")
	if err := os.MkdirAll(filepath.Dir(withFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(withFile, []byte("file-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noFile := filepath.Join(dir, "none", "bridge-token")
	for _, c := range []struct {
		name      string
		flag      string
		env       map[string]string
		file      string
		url       string
		token     string
		tokenFile string
	}{
		{"defaults", "", nil, noFile, "ws://127.0.0.1:9080", "", ""},
		{"env URL", "", map[string]string{"GODOT_MCP_BRIDGE_URL": "ws://127.0.0.1:9555"}, noFile, "ws://127.0.0.1:9555", "", ""},
		{"flag wins", "ws://127.0.0.1:7000", map[string]string{"GODOT_MCP_BRIDGE_URL": "ws://127.0.0.1:9555"}, noFile, "ws://127.0.0.1:7000", "", ""},
		{"off", "off", nil, withFile, "", "", ""},
		{"env off", "", map[string]string{"GODOT_MCP_BRIDGE_URL": "OFF"}, withFile, "", "", ""},
		{"env token", "", map[string]string{"GODOT_MCP_BRIDGE_TOKEN": "t"}, noFile, "ws://127.0.0.1:9080", "t", ""},
		{"the token file turns the token on", "", nil, withFile, "ws://127.0.0.1:9080", "file-token", withFile},
		{"env token wins over the file", "", map[string]string{"GODOT_MCP_BRIDGE_TOKEN": "t"}, withFile, "ws://127.0.0.1:9080", "t", ""},
		{"an empty env token turns it off", "", map[string]string{"GODOT_MCP_BRIDGE_TOKEN": ""}, withFile, "ws://127.0.0.1:9080", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			got, err := bridgeSettings(c.flag, lookup, func() (string, error) { return c.file, nil })
			if err != nil {
				t.Fatal(err)
			}
			if got != (bridgeConfig{c.url, c.token, c.tokenFile}) {
				t.Errorf("got %+v, want url %q token %q file %q", got, c.url, c.token, c.tokenFile)
			}
		})
	}
}

// A token file others can read keeps nobody out: serve refuses it and
// says how to fix it.
func TestBridgeSettingsRefusesAnOpenTokenFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no mode bits")
	}
	file := filepath.Join(t.TempDir(), "bridge-token")
	if err := os.WriteFile(file, []byte("tok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	none := func(string) (string, bool) { return "", false }
	_, err := bridgeSettings("", none, func() (string, error) { return file, nil })
	if err == nil || !strings.HasPrefix(err.Error(), "PRECONDITION_FAILED: ") || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("err %v", err)
	}
}

func TestBridgeTokenCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "godot-mcp", "bridge-token")
	where := func() (string, error) { return file, nil }
	run := func(args ...string) (code int, stdout, stderr string) {
		var out, errb bytes.Buffer
		code = bridgeToken(args, &out, &errb, where)
		return code, out.String(), errb.String()
	}
	code, tok1, msg := run()
	if code != 0 || len(strings.TrimSpace(tok1)) != 64 || !strings.Contains(msg, "GODOT_MCP_BRIDGE_TOKEN=\"$(godot-mcp bridge-token)\"") {
		t.Fatalf("first run: %d %q %q", code, tok1, msg)
	}
	if fi, err := os.Stat(file); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("token file: %v %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Dir(file)); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700) {
		t.Fatalf("token directory: %v %v", fi, err)
	}
	code, tok2, msg := run()
	if code != 0 || tok2 != tok1 || msg != "" {
		t.Fatalf("second run: %d %q %q: the token must stay the same, printed alone", code, tok2, msg)
	}
	code, tok3, _ := run("--reset")
	if code != 0 || tok3 == tok1 || len(strings.TrimSpace(tok3)) != 64 {
		t.Fatalf("reset: %d %q", code, tok3)
	}
	if code, p, _ := run("--path"); code != 0 || strings.TrimSpace(p) != file {
		t.Fatalf("--path: %d %q", code, p)
	}
	if code, _, _ := run("extra"); code != 2 {
		t.Fatalf("an argument: exit %d", code)
	}
}
