package e2e

//lint:file-ignore SA1019 MCP logging is deprecated by 2026-07-28 but 2025-11-25 sessions still get events through it, which these tests check.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk"
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
			if te.Code != sdk.CodeToolNotExposed || !strings.Contains(te.Required, exposure.LayerProfile) {
				t.Errorf("reader calling a mutating tool = %+v", te)
			}
			te = toolError(t, dev.call(t, "godot_gatetest_delete", map[string]any{"path": "a", "confirm": true}))
			if te.Code != sdk.CodeToolNotExposed {
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

const parentChildConfig = `
default_toolsets = ["inspection", "gatetest"]

[profiles.parent]
deny = ["class:destructive"]

[profiles.child]
inherit = "parent"
allow = ["class:read_only", "godot_gatetest_delete"]

[[tokens]]
name      = "agent"
token_env = "E2E_TOKEN_PARENT"
profile   = "parent"

[[tokens]]
name      = "sub-agent"
token_env = "E2E_TOKEN_CHILD"
profile   = "child"
`

// TestParentChildProfiles is the exposure issue's end-to-end case: a
// sub-agent's token is bound to a profile that inherits the agent's. The
// child sees a subset of the parent's tools (its own allow of a destructive
// tool cannot widen the parent's deny), a call to a parent-only tool is
// refused before the plugin sees it, and the withholding shows up as
// ToolsFiltered events in MCP logging and in godot_get_server_info.
func TestParentChildProfiles(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(cfg, []byte(parentChildConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	const parentTok, childTok = "parent-token-0123456789abcdef", "child-token-0123456789abcdef"
	h := startHTTPAt(t, "127.0.0.1:0", []string{"E2E_TOKEN_PARENT=" + parentTok, "E2E_TOKEN_CHILD=" + childTok},
		"--config", cfg, "--godot-version", "4.5")

	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			parent := h.connect(t, v, map[string]string{"Authorization": "Bearer " + parentTok})
			child := h.connect(t, v, map[string]string{"Authorization": "Bearer " + childTok})
			isLegacy := v == legacy // the 2026 protocol has no session to log to
			if isLegacy {
				if err := parent.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
					t.Fatal(err)
				}
			}

			parentTools, childTools := parent.names(t), child.names(t)
			for _, n := range childTools {
				if !slices.Contains(parentTools, n) {
					t.Errorf("child sees %s, which the parent does not: child %v, parent %v", n, childTools, parentTools)
				}
			}
			if slices.Contains(childTools, "godot_gatetest_delete") {
				t.Error("the child's allow list widened the parent's deny of destructive tools")
			}
			if !slices.Contains(parentTools, "godot_gatetest_rename") || slices.Contains(childTools, "godot_gatetest_rename") {
				t.Fatalf("want rename visible to the parent only: parent %v, child %v", parentTools, childTools)
			}
			if len(childTools) >= len(parentTools) {
				t.Errorf("child list %v is not narrower than the parent's %v", childTools, parentTools)
			}

			te := toolError(t, child.call(t, "godot_gatetest_rename", map[string]any{"from": "a", "to": "b"}))
			if te.Code != sdk.CodeToolNotExposed || !strings.Contains(te.Required, exposure.LayerProfile) {
				t.Errorf("child calling a parent-only tool = %+v", te)
			}
			if calls := readLines(t, h.callLog); len(calls) != 0 {
				t.Errorf("the plugin saw %v", calls)
			}

			var info struct {
				Events []struct {
					Kind   string         `json:"kind"`
					Fields map[string]any `json:"fields"`
				} `json:"events"`
			}
			child.ok(t, "godot_get_server_info", map[string]any{"events": 100}, &info)
			found := false
			for _, e := range info.Events {
				if e.Kind == "tools_filtered" && e.Fields["profile"] == "child" && e.Fields["by"] == exposure.LayerProfile {
					found = true
				}
			}
			if !found {
				t.Errorf("no ToolsFiltered event by the profile layer for the child in server info: %+v", info.Events)
			}
			for _, e := range info.Events {
				if p, _ := e.Fields["principal"].(string); p != "" && p != "sub-agent" {
					t.Errorf("the sub-agent can read an event about principal %q: %+v", p, e)
				}
			}

			if isLegacy {
				deadline := time.After(10 * time.Second)
				for seen := false; !seen; {
					select {
					case m := <-parent.logs:
						seen = strings.Contains(fmt.Sprint(m.Data), "tools_filtered")
					case <-deadline:
						t.Fatal("no ToolsFiltered logging notification reached the session that asked for info level")
					}
				}
			}
		})
	}
}
