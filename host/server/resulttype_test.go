package server

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
)

// callResults returns the result objects of the tools/call answers in a
// LoggingTransport's log, keyed by request id.
func callResults(t *testing.T, log string) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for line := range strings.SplitSeq(log, "\n") {
		raw, ok := strings.CutPrefix(line, "read: ")
		if !ok {
			continue
		}
		var msg struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(raw), &msg) != nil || msg.Result == nil {
			continue
		}
		if _, ok := msg.Result["content"]; ok {
			out = append(out, msg.Result)
		}
	}
	return out
}

// MCP Inspector rejected every 2026-07-28 tools/call ("missing required
// resultType") because the host answers calls itself and the go-sdk only
// marks the results of its own dispatch. Every answer, success or refusal,
// now says resultType "complete" on that protocol, over real HTTP; a
// 2025-11-25 session, whose schema has no such field, gets none.
func TestCallResultsCarryResultType(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	url := serveHTTP(t, e, HTTPOptions{})
	for _, tc := range []struct {
		version string
		want    string // "" means absent
	}{
		{sessionless, `"complete"`},
		{legacy, ""},
	} {
		t.Run(tc.version, func(t *testing.T) {
			var log syncbuf.Buffer
			tr := &mcp.LoggingTransport{Transport: &mcp.StreamableClientTransport{Endpoint: url}, Writer: &log}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), tr,
				&mcp.ClientSessionOptions{ProtocolVersion: tc.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			calls := []*mcp.CallToolParams{
				{Name: "godot_get_server_info", Arguments: map[string]any{}},
				{Name: "godot_enable_toolset", Arguments: map[string]any{"toolsets": []string{"no_such_toolset"}}},
				{Name: "godot_enable_toolset", Arguments: map[string]any{"toolsets": 3}},
			}
			for _, p := range calls {
				if _, err := cs.CallTool(context.Background(), p); err != nil {
					t.Fatalf("%s: %v", p.Name, err)
				}
			}
			results := callResults(t, log.String())
			if len(results) != len(calls) {
				t.Fatalf("%d tools/call results in the log, want %d:\n%.3000s", len(results), len(calls), log.String())
			}
			for i, r := range results {
				if got := string(r["resultType"]); got != tc.want {
					t.Errorf("call %d (%s): resultType %q, want %q", i, calls[i].Name, got, tc.want)
				}
			}
		})
	}
}

// markComplete copies a result field by field; a field the go-sdk adds
// later must be copied too, or results would silently lose it.
func TestMarkCompleteKeepsEveryField(t *testing.T) {
	copied := map[string]bool{"Meta": true, "Content": true, "StructuredContent": true, "IsError": true,
		"InputRequests": true, "RequestState": true}
	rt := reflect.TypeFor[mcp.CallToolResult]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.IsExported() && !copied[f.Name] {
			t.Errorf("mcp.CallToolResult has the field %s, which markComplete does not copy", f.Name)
		}
	}
	in := &mcp.CallToolResult{Meta: mcp.Meta{"k": "v"}, Content: []mcp.Content{&mcp.TextContent{Text: "x"}},
		StructuredContent: map[string]any{"a": 1.0}, IsError: true}
	b, err := json.Marshal(markComplete(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_meta":{"k":"v"},"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1},"isError":true,"resultType":"complete"}`
	if string(b) != want {
		t.Errorf("markComplete:\n got %s\nwant %s", b, want)
	}
}
