package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// asError maps any error on the call path to the one error type: an
// *sdk.Error (from the gate, the policy, the supervisor or a plugin) keeps
// its code and gains the toolset if it has none; a cancelled context is
// CALL_CANCELLED; anything else is INTERNAL with the error text, because a
// caller must always learn what went wrong.
func asError(err error, toolset string) *sdk.Error {
	var se *sdk.Error
	if errors.As(err, &se) {
		if se.Toolset == "" && toolset != "" {
			c := *se
			c.Toolset = toolset
			return &c
		}
		return se
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &sdk.Error{Code: sdk.CodeCallCancelled, Message: err.Error(), Toolset: toolset, Err: err,
			Hint: "the call was cancelled or ran out of time; retry it if the caller still needs the result"}
	}
	return &sdk.Error{Code: sdk.CodeInternalError, Message: err.Error(), Toolset: toolset, Err: err,
		Hint: "this is a bug in godot-mcp or the toolset; the host log has details"}
}

// errorResult renders an error as an isError tool result: its text, code
// first, for every client, and the error as structured content only when
// the tool declares no output schema. A client validates structured
// content against the output schema even on error results (the official
// TypeScript SDK throws when it does not match), so for those tools the
// code and hint travel in the text alone.
func errorResult(e *sdk.Error, hasOutputSchema bool) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: e.Text()}},
	}
	if !hasOutputSchema {
		res.StructuredContent = e
	}
	return res
}

// toMCP converts a plugin's result (already off the wire, see
// supervisor.Call) to MCP. A failure the plugin described is err, rendered
// like the host's own, and returned too; the result's other content
// follows its text.
func toMCP(res sdk.Result, err error, toolset string, hasOutputSchema bool) (*mcp.CallToolResult, *sdk.Error) {
	if err != nil {
		se := asError(err, toolset)
		out := errorResult(se, hasOutputSchema)
		out.Content = append(out.Content, contentToMCP(res.Content)...)
		return out, se
	}
	out := &mcp.CallToolResult{IsError: res.IsError, Content: contentToMCP(res.Content)}
	if raw, ok := res.Structured.(json.RawMessage); ok && len(raw) > 0 {
		if !isJSONObject(raw) {
			// MCP requires structuredContent to be an object; passing
			// anything else on would break the client, not the plugin.
			te := &sdk.Error{Code: sdk.CodePluginBadResult, Toolset: toolset,
				Message: fmt.Sprintf("toolset %q returned structured content that is not a JSON object", toolset),
				Hint:    "report this to the toolset's author: structured content must be a JSON object; the tool's text output follows"}
			bad := errorResult(te, hasOutputSchema)
			bad.Content = append(bad.Content, out.Content...)
			return bad, te
		}
		out.StructuredContent = raw
	}
	return out, nil
}

func contentToMCP(cs []sdk.Content) []mcp.Content {
	out := make([]mcp.Content, 0, len(cs))
	for _, c := range cs {
		switch c := c.(type) {
		case sdk.TextContent:
			out = append(out, &mcp.TextContent{Text: c.Text})
		case sdk.ImageContent:
			out = append(out, &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType})
		case sdk.AudioContent:
			out = append(out, &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType})
		}
	}
	return out
}

// isJSONObject reports whether b is one valid JSON object.
func isJSONObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// jsonResult renders a successful core-tool answer: v as structured content
// and, for clients that read only text, a one-line summary followed by the
// same value as compact JSON. Indentation would double an answer's size
// (enable results list whole input schemas), and HTML escaping would spell
// a signature's "->" as \u003e, so neither is used.
func jsonResult(summary string, v any) *mcp.CallToolResult {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return errorResult(asError(err, gate.Core), false)
	}
	raw := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	text := string(raw)
	if summary != "" {
		text = summary + "\n" + text
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(raw),
	}
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
