package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// metricsPath is where the HTTP listener serves Prometheus metrics.
const metricsPath = "/metrics"

// observedCall is answer measured: every answered call of a known tool
// counts toward its metrics (Options.Metrics). Unknown names are not
// counted: a client could make up any number of them.
func (s *Server) observedCall(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	a, err := s.observed(ctx, req)
	if a.res == nil {
		return nil, err
	}
	return a.res, err
}

// observed is answer, counted in the metrics: every tools/call, and every
// call the host makes on a caller's behalf (a resource read, a workflow).
func (s *Server) observed(ctx context.Context, req *mcp.CallToolRequest) (answer, error) {
	m := s.opts.Metrics
	if m == nil || req.Params == nil {
		return s.answer(ctx, req)
	}
	e, known := s.reg.lookup(req.Params.Name)
	if !known {
		return s.answer(ctx, req)
	}
	t := m.Tool(e.ref.Toolset, e.ref.Name)
	start := time.Now()
	a, err := s.answer(ctx, req)
	var res mcp.Result
	if a.res != nil {
		res = a.res
	}
	code, out := resultStats(res, err)
	if a.err != nil && a.err.Code != "" {
		code = a.err.Code // the error itself, not its words
	}
	t.Observe(time.Since(start), code, len(req.Params.Arguments), out)
	return a, err
}

// resultStats reads an answer's error code ("" for success) and its size
// in bytes: text, image and audio data and structured content, not the
// JSON-RPC envelope, so that measuring costs no encoding.
func resultStats(res mcp.Result, err error) (code string, size int) {
	if err != nil {
		return "PROTOCOL_ERROR", 0
	}
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil {
		return "", 0
	}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			size += len(c.Text)
		case *mcp.ImageContent:
			size += len(c.Data)
		case *mcp.AudioContent:
			size += len(c.Data)
		}
	}
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		size += len(raw)
	}
	if !r.IsError {
		return "", size
	}
	if se, ok := r.StructuredContent.(*sdk.Error); ok && se.Code != "" {
		return se.Code, size
	}
	// A core tool's own failure with an output schema: its text only,
	// "CODE: message". (The host's refusals and plugins' errors reach
	// observedCall as the *sdk.Error itself.)
	if len(r.Content) > 0 {
		if tc, ok := r.Content[0].(*mcp.TextContent); ok {
			if c, _, found := strings.Cut(tc.Text, ":"); found && isCode(c) {
				return c, size
			}
		}
	}
	return "TOOL_ERROR", size
}

// isCode reports whether s looks like an error code (UPPER_SNAKE).
func isCode(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if (r < 'A' || r > 'Z') && r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// visibleTo returns the test the metrics of caller pass: a tool the
// policy shows the caller, a toolset with at least one such tool.
func (s *Server) visibleTo(caller exposure.Caller) func(toolset, tool string) bool {
	entries := s.reg.all()
	refs := make([]exposure.Tool, len(entries))
	for i, e := range entries {
		refs[i] = e.ref
	}
	tools, sets := map[string]bool{}, map[string]bool{}
	for _, t := range s.policy.Evaluate(caller, refs).Visible {
		tools[t.Name] = true
		sets[t.Toolset] = true
	}
	return func(toolset, tool string) bool {
		if tool == "" {
			return sets[toolset]
		}
		return tools[tool]
	}
}

// metricsInfo is the "metrics" section of godot_get_server_info: the
// numbers of what caller may see; nil without metrics.
func (s *Server) metricsInfo(caller exposure.Caller) any {
	if s.opts.Metrics == nil {
		return nil
	}
	return s.opts.Metrics.Snapshot(s.visibleTo(caller))
}

// metricsHandler serves Prometheus metrics behind the same checks as the
// MCP endpoint (bearer token, Host and Origin), narrowed to what the
// token's principal may see; nil without metrics.
func (s *Server) metricsHandler(o HTTPOptions, loopback bool) http.Handler {
	m := s.opts.Metrics
	if m == nil {
		return nil
	}
	var h http.Handler = m.Handler(func(r *http.Request) func(string, string) bool {
		c := exposure.Caller{Transport: exposure.TransportHTTP, Loopback: true, Profile: s.opts.LocalProfile}
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			c = exposure.Caller{Transport: exposure.TransportHTTP, Principal: ti.UserID}
			c.Profile, _ = ti.Extra[extraProfile].(string)
			c.Loopback, _ = ti.Extra[extraLoopback].(bool)
		}
		return s.visibleTo(c)
	})
	if o.authRequired() {
		h = auth.RequireBearerToken(o.verifier(), &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
		h = bearerChallenge(h)
	}
	return guard(h, loopback, o.AllowedOrigins)
}

// Metrics returns the server's metrics registry (nil without one).
func (s *Server) Metrics() *metrics.Registry { return s.opts.Metrics }
