package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/sdk"
)

var defaultSurface = []string{
	"godot_debug_workflow", "godot_describe_class", "godot_disable_toolset", "godot_enable_toolset", "godot_get_server_info",
	"godot_health_check", "godot_inspection_scene_tree", "godot_list_history", "godot_list_tools_by_safety_class",
	"godot_list_toolsets", "godot_read_resource", "godot_redo", "godot_undo",
}

var gatetestTools = []string{
	"godot_gatetest_delete", "godot_gatetest_fail", "godot_gatetest_read", "godot_gatetest_rename", "godot_gatetest_slow",
}

// TestStdio runs the whole gating story over stdio, for both protocols.
func TestStdio(t *testing.T) {
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			s := stdioHost(t, v, "--godot-version", "4.5")
			if got := s.names(t); !slices.Equal(got, defaultSurface) {
				t.Fatalf("default surface = %v\nwant %v", got, defaultSurface)
			}

			// A tool of a disabled toolset names the fix.
			te := toolError(t, s.call(t, "godot_gatetest_read", map[string]any{}))
			if te.Code != sdk.CodeToolsetDisabled || !strings.Contains(te.Hint, `godot_enable_toolset({"toolsets":["gatetest"]})`) {
				t.Errorf("disabled tool = %+v", te)
			}

			// Enable: the result carries the new tools with schemas and
			// annotations, and list_changed arrives.
			var enabled struct {
				Enabled []string   `json:"enabled"`
				Tools   []mcp.Tool `json:"tools"`
			}
			s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, &enabled)
			var names []string
			for _, tl := range enabled.Tools {
				names = append(names, tl.Name)
				if tl.InputSchema == nil || tl.Annotations == nil || tl.Description == "" {
					t.Errorf("enable result tool %s lacks schema, annotations or description: %+v", tl.Name, tl)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, gatetestTools) {
				t.Errorf("enable result tools = %v", names)
			}
			waitListChanged(t, s, "stdio "+v)
			if got := s.names(t); !slices.Contains(got, "godot_gatetest_delete") {
				t.Errorf("after enable: %v", got)
			}

			// Destructive without confirm: refused, and the plugin saw nothing.
			te = toolError(t, s.call(t, "godot_gatetest_delete", map[string]any{"path": "/root/a"}))
			if te.Code != sdk.CodePreconditionFailed || te.Required != sdk.RequiredConfirm {
				t.Errorf("unconfirmed destructive call = %+v", te)
			}
			if calls := s.pluginCalls(t); len(calls) != 0 {
				t.Errorf("plugin saw %v", calls)
			}
			// Schema validation happens in the host too.
			te = toolError(t, s.call(t, "godot_gatetest_rename", map[string]any{"from": "a"}))
			if te.Code != sdk.CodeInvalidArgument {
				t.Errorf("invalid arguments = %+v", te)
			}
			if calls := s.pluginCalls(t); len(calls) != 0 {
				t.Errorf("plugin saw %v", calls)
			}
			// Confirmed, and a dry run: confirm and dry_run never reach the
			// plugin as arguments; dry_run arrives as the call's flag.
			var seen struct {
				Tool   string          `json:"tool"`
				Args   json.RawMessage `json:"args"`
				DryRun bool            `json:"dry_run"`
			}
			s.ok(t, "godot_gatetest_delete", map[string]any{"path": "/root/a", "confirm": true}, &seen)
			if seen.Tool != "delete" || string(seen.Args) != `{"path":"/root/a"}` || seen.DryRun {
				t.Errorf("confirmed delete: plugin saw %+v %s", seen, seen.Args)
			}
			s.ok(t, "godot_gatetest_rename", map[string]any{"from": "a", "to": "b", "dry_run": true}, &seen)
			if !seen.DryRun || string(seen.Args) != `{"from":"a","to":"b"}` {
				t.Errorf("dry run: plugin saw %+v %s", seen, seen.Args)
			}
			// A plugin's structured failure keeps its code and hint.
			if te := toolError(t, s.call(t, "godot_gatetest_fail", nil)); te.Code != "NOT_FOUND" || te.Toolset != "gatetest" {
				t.Errorf("plugin failure = %+v", te)
			}

			// Disable: the tools and the plugin process go.
			pid := s.pluginPID(t, "gatetest")
			if pid == 0 {
				t.Fatal("gatetest has no pid while enabled")
			}
			drain(s.listChanged)
			s.ok(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
			waitListChanged(t, s, "stdio "+v+" after disable")
			if got := s.names(t); !slices.Equal(got, defaultSurface) {
				t.Errorf("after disable = %v", got)
			}
			waitGone(t, pid)
			if te := toolError(t, s.call(t, "godot_gatetest_read", map[string]any{})); te.Code != sdk.CodeToolsetDisabled {
				t.Errorf("after disable = %+v", te)
			}
		})
	}
}

func TestProgressOverStdio(t *testing.T) {
	s := stdioHost(t, legacy, "--godot-version", "4.5")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "godot_gatetest_slow", Arguments: map[string]any{"steps": 3}, Meta: mcp.Meta{"progressToken": "tok"},
	})
	if err != nil || res.IsError {
		t.Fatalf("slow: %v %v", err, res)
	}
	for i := range 3 {
		select {
		case p := <-s.progress:
			if p.ProgressToken != "tok" || p.Total != 3 {
				t.Errorf("progress %d = %+v", i, p)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("progress %d missing", i)
		}
	}
}

func TestVersionRefusedEnable(t *testing.T) {
	for _, tc := range []struct{ name, found string }{{"old Godot", "4.3"}, {"unknown Godot", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if tc.found != "" {
				args = []string{"--godot-version", tc.found}
			}
			s := stdioHost(t, sessionless, args...)
			te := toolError(t, s.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}))
			if te.Code != sdk.CodePreconditionFailed || te.Required != sdk.RequiredGodotVersion || te.Toolset != "gatetest" {
				t.Errorf("refusal = %+v", te)
			}
			found := tc.found
			if found == "" {
				found = "no version"
			}
			if !strings.Contains(te.Hint, ">= 4.4") || !strings.Contains(te.Hint, "found "+found) {
				t.Errorf("hint %q must name the requirement and the found version", te.Hint)
			}
		})
	}
}

func TestProjectGodotVersion(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"Demo\"\nconfig/features=PackedStringArray(\"4.7\", \"Forward Plus\")\n")
	s := stdioHost(t, legacy, "--project", dir)
	var info struct {
		Godot struct{ Version, Source string } `json:"godot"`
	}
	s.ok(t, "godot_get_server_info", nil, &info)
	if info.Godot.Version != "4.7" || info.Godot.Source != "project.godot" {
		t.Errorf("godot = %+v", info.Godot)
	}
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
}

func TestDefaultToolsetsEnv(t *testing.T) {
	callLog := t.TempDir() + "/calls"
	cmd := exec.Command(bin, "serve", "--plugins-dir", pluginsDir, "--godot-version", "4.5")
	cmd.Env = hostEnv(callLog, "GODOT_MCP_DEFAULT_TOOLSETS=gatetest,nope")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s := &session{ClientSession: cs, notes: newNotes()}
	got := s.names(t)
	if slices.Contains(got, "godot_inspection_scene_tree") || !slices.Contains(got, "godot_gatetest_read") {
		t.Errorf("seeded surface = %v", got)
	}
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "- gatetest:") || !strings.Contains(ins, "confirm") {
		t.Errorf("instructions do not follow the seeded set:\n%s", ins)
	}
}

// TestHTTP shares one host between a 2025-11-25 session and a 2026-07-28
// client with an open listen stream.
func TestHTTP(t *testing.T) {
	h := startHTTP(t, nil, "--godot-version", "4.5")
	old := h.connect(t, legacy, nil)
	modern := h.connect(t, sessionless, nil)
	for _, s := range []*session{old, modern} {
		if got := s.names(t); !slices.Equal(got, defaultSurface) {
			t.Fatalf("default surface = %v", got)
		}
	}
	var enabled struct {
		Tools []mcp.Tool `json:"tools"`
	}
	modern.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, &enabled)
	if len(enabled.Tools) != len(gatetestTools) {
		t.Errorf("enable result has %d tools", len(enabled.Tools))
	}
	waitListChanged(t, old, "legacy HTTP session")
	waitListChanged(t, modern, "2026-07-28 listen stream")

	// A grant made on one connection is seen by a new connection.
	for _, v := range protocols {
		fresh := h.connect(t, v, nil)
		if got := fresh.names(t); !slices.Contains(got, "godot_gatetest_read") {
			t.Errorf("fresh %s connection does not see the grant: %v", v, got)
		}
	}
	// Calls work on both generations, and the destructive refusal holds.
	old.ok(t, "godot_gatetest_read", map[string]any{"path": "x"}, nil)
	if te := toolError(t, modern.call(t, "godot_gatetest_delete", map[string]any{"path": "x"})); te.Required != sdk.RequiredConfirm {
		t.Errorf("unconfirmed delete over HTTP = %+v", te)
	}
	if calls := readLines(t, h.callLog); len(calls) != 1 || !strings.Contains(calls[0], `"read"`) {
		t.Errorf("plugin calls = %v", calls)
	}

	pid := old.pluginPID(t, "gatetest")
	drain(old.listChanged)
	drain(modern.listChanged)
	old.ok(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"gatetest"}}, nil)
	waitListChanged(t, old, "legacy HTTP session after disable")
	waitListChanged(t, modern, "listen stream after disable")
	waitGone(t, pid)
	if got := modern.names(t); slices.Contains(got, "godot_gatetest_read") {
		t.Errorf("after disable: %v", got)
	}
}

func TestHTTPSafety(t *testing.T) {
	t.Run("non-loopback without token refuses to start", func(t *testing.T) {
		cmd := exec.Command(bin, "serve", "--http", "0.0.0.0:0", "--plugins-dir", pluginsDir)
		cmd.Env = hostEnv(t.TempDir() + "/calls")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("serve started on 0.0.0.0 without a token:\n%s", out)
		}
		if !strings.Contains(string(out), server.AuthTokenEnv) {
			t.Errorf("the refusal does not name %s:\n%s", server.AuthTokenEnv, out)
		}
	})

	h := startHTTP(t, nil)
	post := func(t *testing.T, headers map[string]string, body string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			if k == "Host" {
				req.Host = v // net/http sends req.Host, not a Host header
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		return resp, string(b[:n])
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	t.Run("foreign Origin", func(t *testing.T) {
		resp, body := post(t, map[string]string{"Origin": "http://evil.example"}, initialize)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Origin") {
			t.Errorf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("loopback Origin", func(t *testing.T) {
		if resp, body := post(t, map[string]string{"Origin": "http://localhost:3000"}, initialize); resp.StatusCode != http.StatusOK {
			t.Errorf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("rebound Host", func(t *testing.T) {
		resp, body := post(t, map[string]string{"Host": "evil.example"}, initialize)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("2026-07-28 request without Mcp-Method", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		resp, out := post(t, map[string]string{"Mcp-Protocol-Version": sessionless}, body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "-32020") || !strings.Contains(out, "Mcp-Method") {
			t.Errorf("status %d: %s", resp.StatusCode, out)
		}
	})
	t.Run("2026-07-28 request without Mcp-Protocol-Version", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		resp, out := post(t, map[string]string{"Mcp-Method": "tools/list"}, body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "-32020") {
			t.Errorf("status %d: %s", resp.StatusCode, out)
		}
	})
}

func TestHTTPBearerToken(t *testing.T) {
	const token = "e2e-secret-token-0123456789"
	h := startHTTP(t, []string{server.AuthTokenEnv + "=" + token})
	for _, v := range protocols {
		s := h.connect(t, v, map[string]string{"Authorization": "Bearer " + token})
		var info struct {
			Caller struct{ Principal, Transport string } `json:"caller"`
		}
		s.ok(t, "godot_get_server_info", map[string]any{"events": 0}, &info)
		if info.Caller.Principal != server.OperatorPrincipal || info.Caller.Transport != "http" {
			t.Errorf("%s caller = %+v", v, info.Caller)
		}
	}
	for _, auth := range []string{"", "Bearer wrong"} {
		req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, resp.StatusCode)
		}
	}
}

func TestCallCommand(t *testing.T) {
	callLog := t.TempDir() + "/calls"
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, append([]string{"call"}, append(args, "--plugins-dir", pluginsDir, "--godot-version", "4.5")...)...)
		cmd.Env = hostEnv(callLog)
		var stdout, stderr syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stdout.String(), stderr.String()
	}
	code, _, stderr := run("godot_gatetest_delete", "--args", `{"path":"a"}`)
	if code != 1 || !strings.Contains(stderr, "confirm") {
		t.Errorf("unconfirmed: exit %d, stderr %s", code, stderr)
	}
	if calls := readLines(t, callLog); len(calls) != 0 {
		t.Errorf("plugin saw %v", calls)
	}
	code, stdout, stderr := run("godot_gatetest_delete", "--args", `{"path":"a"}`, "--confirm", "--json")
	if code != 0 || !strings.Contains(stdout, `"structuredContent"`) {
		t.Errorf("confirmed: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if code, _, stderr := run("godot_nope"); code != 1 || !strings.Contains(stderr, "godot_nope") {
		t.Errorf("unknown tool: exit %d, stderr %s", code, stderr)
	}
	if code, _, _ := run(); code != 2 {
		t.Errorf("no tool: exit %d", code)
	}
}

// headerClient adds fixed headers to every request.
func headerClient(headers map[string]string) *http.Client {
	return &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}}
}

type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}
