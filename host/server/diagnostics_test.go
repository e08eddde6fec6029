package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
)

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// callText calls a tool and returns its whole answer as text (content and
// structured content), for asserting what a caller can read.
func callText(t *testing.T, cs *mcp.ClientSession, tool string) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

// A caller bound to a policy token reads diagnostics only about what its
// policy shows it: not the toolsets withheld from it (their crash output
// included), not host internals (pids, absolute paths, hashes), not the
// names of refused binaries. The operator still reads everything.
func TestDiagnosticsFollowTheCallersPolicy(t *testing.T) {
	cfg := &config.Config{Profiles: map[string]config.Profile{"ci": {Deny: []string{"runtime"}}}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const project = "/home/someone/secret-project"
	e := newEnv(t, envOptions{godot: "4.5", policy: chain, project: project,
		problems: func() []error {
			return []error{errors.New("/opt/godot-mcp/plugins/godot-mcp-toolset-evil: manifest: bad json")}
		}})
	e.plugins.mu.Lock()
	e.plugins.status = map[string]supervisor.Status{
		"runtime": {State: supervisor.Crashed, PID: 31337,
			LastError: "panic: boom in " + project + "/runtime.go\n\ngoroutine 1 [running]:\nmain.crash()"},
	}
	e.plugins.mu.Unlock()
	op := e.connect(t, legacy)
	if res := op.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime"}}); res.IsError {
		t.Fatalf("operator enable: %+v", res)
	}

	url := serveHTTP(t, e, HTTPOptions{Token: "operator-secret", HasPrincipals: true,
		Principal: func(tok string) (string, string, bool) { return "ci-bot", "ci", tok == "ci-secret" }})
	mc := mcp.NewClient(&mcp.Implementation{Name: "ci", Version: "1"}, nil)
	cs, err := mc.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{"ci-secret"}}}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, tool := range []string{"godot_get_server_info", "godot_health_check", "godot_list_toolsets"} {
		got := callText(t, cs, tool)
		for _, leak := range []string{project, "31337", "panic", "goroutine", "/opt/godot-mcp", "toolset-evil", `"pid"`} {
			if strings.Contains(got, leak) {
				t.Errorf("%s shows ci-bot %q:\n%.3000s", tool, leak, got)
			}
		}
	}
	if got := callText(t, cs, "godot_get_server_info"); strings.Contains(got, `"name":"runtime"`) {
		t.Errorf("server info lists the withheld runtime toolset:\n%.3000s", got)
	}
	if got := callText(t, cs, "godot_health_check"); !strings.Contains(got, "1 installed toolset plugins were refused") {
		t.Errorf("health check does not say a plugin was refused:\n%.3000s", got)
	}

	// The operator (here the stdio client) reads it all.
	opInfo := callText(t, op.cs, "godot_get_server_info")
	for _, want := range []string{project, "31337", "panic"} {
		if !strings.Contains(opInfo, want) {
			t.Errorf("operator's server info lacks %q", want)
		}
	}
	if got := callText(t, op.cs, "godot_list_toolsets"); !strings.Contains(got, "toolset-evil") {
		t.Errorf("operator's toolset list does not show the refused plugin:\n%.2000s", got)
	}
}

// A huge toolset name used to come back three times (message, toolset
// field, hint); now the answer quotes a readable cut of it.
func TestHugeToolsetNameIsNotEchoed(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	huge := strings.Repeat("x", 3<<20)
	res := c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{huge, "nope", "a", "b", "c", "d", "e"}})
	te := toolErr(t, res)
	if te.Code != "UNKNOWN_TOOLSET" {
		t.Fatalf("code %s", te.Code)
	}
	b, _ := json.Marshal(res)
	if len(b) > 4096 {
		t.Fatalf("the refusal is %d bytes: it echoes the input", len(b))
	}
	if !strings.Contains(te.Message, "(3145728 bytes)") || !strings.Contains(te.Message, "and 2 more") {
		t.Errorf("message %q should say how long the name was and how many more were named", te.Message)
	}
}
