package server

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeTemplate is a CallToolResult whose resultType is "complete". The
// go-sdk keeps that field unexported and sets it only in its own tools/call
// dispatch, which the host never reaches (answer answers every call), so
// its UnmarshalJSON is the one public way to set it.
var completeTemplate = func() mcp.CallToolResult {
	var r mcp.CallToolResult
	if err := json.Unmarshal([]byte(`{"content":[],"resultType":"complete"}`), &r); err != nil {
		panic("server: the go-sdk no longer decodes a CallToolResult's resultType: " + err.Error())
	}
	return r
}()

// speaksResultType reports whether the caller negotiated 2026-07-28 or
// later, whose schema requires resultType on every tools/call result. The
// rule is the go-sdk's own: a request without initialize parameters is of
// the latest protocol.
func speaksResultType(req *mcp.CallToolRequest) bool {
	v := sessionlessVersion
	if req.Session != nil {
		if ip := req.Session.InitializeParams(); ip != nil {
			v = ip.ProtocolVersion
		}
	}
	return v >= sessionlessVersion
}

// markComplete returns res as a complete result (resultType "complete"),
// what the 2026-07-28 schema requires of a tool call's final answer; the
// host asks no client for more input, so every answer is final. Every
// exported field is carried over (TestMarkCompleteKeepsEveryField).
func markComplete(res *mcp.CallToolResult) *mcp.CallToolResult {
	out := completeTemplate
	out.Meta = res.Meta
	out.Content = res.Content
	if out.Content == nil {
		out.Content = []mcp.Content{} // the schema wants an array, not null
	}
	out.StructuredContent = res.StructuredContent
	out.IsError = res.IsError
	out.InputRequests = res.InputRequests
	out.RequestState = res.RequestState
	if err := res.GetError(); err != nil {
		out.SetError(err)
	}
	return &out
}
