package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/exposure"
)

const policyConfig = `
default_toolsets = ["inspection", "gatetest"]

[profiles.reader]
allow = ["class:read_only"]

[profiles.editor]
deny = ["class:destructive"]

[[tokens]]
name      = "ci-bot"
token_env = "E2E_TOKEN_READER"
profile   = "reader"

[[tokens]]
name      = "dev"
token_env = "E2E_TOKEN_EDITOR"
profile   = "editor"
`

// TestHTTPPrincipals checks that bearer tokens from the policy config bind
// callers to profiles, that tools/list and tools/call agree per caller, and
// that a bad token is a 401.
func TestHTTPPrincipals(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(cfg, []byte(policyConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	const reader, editor = "reader-token-0123456789abcdef", "editor-token-0123456789abcdef"
	// A wildcard address: allowed because tokens are configured.
	h := startHTTPAt(t, "0.0.0.0:0", []string{"E2E_TOKEN_READER=" + reader, "E2E_TOKEN_EDITOR=" + editor},
		"--config", cfg, "--godot-version", "4.5")

	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			ci := h.connect(t, v, map[string]string{"Authorization": "Bearer " + reader})
			dev := h.connect(t, v, map[string]string{"Authorization": "Bearer " + editor})

			ciTools := ci.names(t)
			for _, n := range ciTools {
				if n == "godot_gatetest_rename" || n == "godot_gatetest_delete" || n == "godot_enable_toolset" {
					t.Errorf("reader sees %s", n)
				}
			}
			if !slices.Contains(ciTools, "godot_gatetest_read") {
				t.Errorf("reader lost a read-only tool: %v", ciTools)
			}
			devTools := dev.names(t)
			if !slices.Contains(devTools, "godot_gatetest_rename") || slices.Contains(devTools, "godot_gatetest_delete") {
				t.Errorf("editor tools = %v", devTools)
			}

			te := toolError(t, ci.call(t, "godot_gatetest_rename", map[string]any{"from": "a", "to": "b"}))
			if te.Code != exposure.CodeNotExposed || !strings.Contains(te.Required, exposure.LayerProfile) {
				t.Errorf("reader calling a mutating tool = %+v", te)
			}
			te = toolError(t, dev.call(t, "godot_gatetest_delete", map[string]any{"path": "a", "confirm": true}))
			if te.Code != exposure.CodeNotExposed {
				t.Errorf("editor calling a destructive tool = %+v", te)
			}
			if calls := readLines(t, h.callLog); len(calls) != 0 {
				t.Errorf("plugin saw %v", calls)
			}
			var info struct {
				Caller struct {
					Principal, Profile string
					Loopback           bool
				} `json:"caller"`
			}
			dev.ok(t, "godot_get_server_info", map[string]any{"events": 0}, &info)
			if info.Caller.Principal != "dev" || info.Caller.Profile != "editor" || !info.Caller.Loopback {
				t.Errorf("editor caller = %+v", info.Caller)
			}
		})
	}

	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+reader+"x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("bad token: status %d", resp.StatusCode)
	}
}
