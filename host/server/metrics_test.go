package server

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// readerPolicy shows the local caller read-only tools only, and never
// godot_runtime_secret.
func readerPolicy(t *testing.T) *exposure.Chain {
	t.Helper()
	cfg := &config.Config{
		Stdio:    struct{ Profile string }{Profile: "reader"},
		Profiles: map[string]config.Profile{"reader": {Allow: []string{"class:read_only"}, Deny: []string{"godot_runtime_secret"}}},
		Tokens:   []config.Token{{Name: "ci", Token: "reader-secret-0123456789abcdef", Profile: "reader"}},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return chain
}

type infoMetrics struct {
	Metrics metrics.Snapshot `json:"metrics"`
}

func TestServerInfoMetricsCountCallsAndShowOnlyWhatTheCallerMaySee(t *testing.T) {
	m := metrics.New()
	e := newEnv(t, envOptions{godot: "4.5", policy: readerPolicy(t), profile: "reader", seed: []string{"inspection", "scene_edit", "runtime"}, metrics: m})
	c := e.connect(t, legacy)
	for range 3 {
		c.call(t, "godot_inspection_scene_tree", map[string]any{})
	}
	if te := toolErr(t, c.call(t, "godot_inspection_broken", map[string]any{})); te.Code != "NOT_FOUND" {
		t.Fatalf("broken = %+v", te)
	}
	// Withheld from this caller: counted, but never shown to it.
	if te := toolErr(t, c.call(t, "godot_runtime_secret", map[string]any{})); te.Code != sdk.CodeToolNotExposed {
		t.Fatalf("secret = %+v", te)
	}
	var info infoMetrics
	structured(t, c.call(t, "godot_get_server_info", map[string]any{"events": 0}), &info)
	byName := map[string]metrics.ToolStats{}
	for _, ts := range info.Metrics.Tools {
		byName[ts.Name] = ts
	}
	st := byName["godot_inspection_scene_tree"]
	if st.Calls != 3 || st.BytesIn != 6 || st.BytesOut == 0 || st.Latency.P50 <= 0 || st.Latency.P99 < st.Latency.P50 || len(st.Errors) != 0 {
		t.Errorf("scene_tree = %+v", st)
	}
	if b := byName["godot_inspection_broken"]; b.Calls != 1 || b.Errors["NOT_FOUND"] != 1 {
		t.Errorf("broken = %+v", b)
	}
	if _, shown := byName["godot_runtime_secret"]; shown {
		t.Error("a tool the policy withholds is shown")
	}
	for _, ts := range info.Metrics.Toolsets {
		if ts.Name == "inspection" && (ts.Calls != 4 || ts.Errors["NOT_FOUND"] != 1) {
			t.Errorf("inspection toolset = %+v", ts)
		}
	}
	// The withheld call was counted all the same (an operator sees it).
	all := m.Snapshot(func(string, string) bool { return true })
	found := false
	for _, ts := range all.Tools {
		if ts.Name == "godot_runtime_secret" && ts.Errors[sdk.CodeToolNotExposed] == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("the refused call is not counted: %+v", all.Tools)
	}
}

func TestMetricsEndpointHasTheSameAuthAndFilter(t *testing.T) {
	m := metrics.New()
	chain := readerPolicy(t)
	e := newEnv(t, envOptions{godot: "4.5", policy: chain, seed: []string{"inspection", "runtime"}, metrics: m})
	m.Tool("runtime", "godot_runtime_secret").Observe(1000, "", 2, 2)
	m.Tool("inspection", "godot_inspection_scene_tree").Observe(1000, "", 2, 2)
	m.PluginEvent("runtime", metrics.PluginStart)
	const operator = "operator-secret-0123456789abcdef"
	cfg := &config.Config{
		Profiles: map[string]config.Profile{"reader": {Allow: []string{"class:read_only"}, Deny: []string{"godot_runtime_secret"}}},
		Tokens:   []config.Token{{Name: "ci", Token: "reader-secret-0123456789abcdef", Profile: "reader"}},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSuffix(serveHTTP(t, e, HTTPOptions{Token: operator, Principal: cfg.Principal, HasPrincipals: true}), "/mcp") + "/metrics"
	get := func(token string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code, _ := get("wrong"); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d, want 401", code)
	}
	code, body := get(operator)
	if code != http.StatusOK || !strings.Contains(body, `godot_mcp_tool_calls_total{tool="godot_runtime_secret",toolset="runtime"} 1`) ||
		!strings.Contains(body, `godot_mcp_plugin_events_total{event="start",toolset="runtime"} 1`) ||
		!strings.Contains(body, "godot_mcp_tool_call_duration_seconds_bucket") {
		t.Errorf("operator: %d\n%s", code, body)
	}
	code, body = get("reader-secret-0123456789abcdef")
	if code != http.StatusOK || strings.Contains(body, "godot_runtime_secret") || strings.Contains(body, `toolset="runtime"`) ||
		!strings.Contains(body, `godot_mcp_tool_calls_total{tool="godot_inspection_scene_tree",toolset="inspection"} 1`) {
		t.Errorf("reader: %d\n%s", code, body)
	}
}

// TestCoreToolNamesMatchTheSDKs keeps the list sdktest checks toolsets
// against (manifest.CoreToolNames) equal to the host's core tools.
func TestCoreToolNamesMatchTheSDKs(t *testing.T) {
	got := CoreToolNames()
	slices.Sort(got)
	want := slices.Clone(manifest.CoreToolNames)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("host core tools %v, sdk/manifest.CoreToolNames %v: update the sdk's list", got, want)
	}
}
