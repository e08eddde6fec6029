package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Codes the server itself produces. Codes from the gate, the exposure chain,
// the supervisor and plugins pass through unchanged.
const (
	CodePreconditionFailed = gate.CodePreconditionFailed
	CodeToolError          = "TOOL_ERROR"
	CodeInternal           = "INTERNAL"
	RequiredConfirm        = "confirm"
	// CodePluginBadResult: a plugin's result broke the result contract (its
	// structured content is not a JSON object); the plugin's text content
	// is kept after the error.
	CodePluginBadResult = "PLUGIN_BAD_RESULT"
)

// Sources of a ToolError: who made the decision.
const (
	// SourceHost: the host refused or failed the call (policy, gate,
	// supervisor, the server itself). A plugin cannot produce it.
	SourceHost = "host"
	// SourcePlugin: the plugin's own tool reported the failure. Its code is
	// passed through as the plugin sent it, even one that looks like a
	// host code (TOOL_NOT_EXPOSED, TOOLSET_DISABLED, ...); source tells
	// them apart.
	SourcePlugin = "plugin"
)

// ToolError is the structured form of every failure a caller sees as a tool
// result. It is the whole structuredContent of the result, so clients can
// branch on Code and Required, and read Hint to fix the call. Source says
// whether the host or the plugin decided; it is rendered as "host" when
// empty, so only fromProto can mark an error as the plugin's.
type ToolError struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	Required string `json:"required,omitempty"`
	Toolset  string `json:"toolset,omitempty"`
	Source   string `json:"source"`
}

// MarshalJSON renders e with Source defaulted to SourceHost.
func (e *ToolError) MarshalJSON() ([]byte, error) {
	type plain ToolError
	p := plain(*e)
	if p.Source == "" {
		p.Source = SourceHost
	}
	return json.Marshal(p)
}

func (e *ToolError) Error() string {
	if e.Hint == "" {
		return e.Code + ": " + e.Message
	}
	return e.Code + ": " + e.Message + " (" + e.Hint + ")"
}

// Text is what a client that ignores structured content shows: the code and
// message, and the hint on its own line so an agent reads the fix.
func (e *ToolError) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Code, e.Message)
	if e.Hint != "" {
		fmt.Fprintf(&b, "\nHint: %s", e.Hint)
	}
	return b.String()
}

// Result renders e as an isError tool result.
func (e *ToolError) Result() *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: e.Text()}},
		StructuredContent: e,
	}
}

// toolError maps any error on the call path to a ToolError: the typed
// errors of gate, exposure and supervisor keep their codes; anything else is
// INTERNAL with the error text, because a caller must always learn what
// went wrong.
func toolError(err error, toolset string) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	var ge *gate.Error
	if errors.As(err, &ge) {
		return &ToolError{Code: ge.Code, Message: ge.Message, Hint: ge.Hint, Required: ge.Required, Toolset: orStr(ge.Toolset, toolset)}
	}
	var ne *exposure.NotExposedError
	if errors.As(err, &ne) {
		return &ToolError{
			Code:     exposure.CodeNotExposed,
			Message:  fmt.Sprintf("tool %q is not exposed to this caller: withheld by the %s layer (%s)", ne.Tool, ne.Layer, ne.Reason),
			Hint:     "ask the operator to change the policy; `godot-mcp policy explain` shows why",
			Required: "layer:" + ne.Layer,
			Toolset:  toolset,
		}
	}
	var se *supervisor.Error
	if errors.As(err, &se) {
		return &ToolError{Code: se.Code, Message: se.Message, Hint: se.Hint, Toolset: orStr(se.Toolset, toolset)}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &ToolError{Code: supervisor.CodeCancelled, Message: err.Error(), Toolset: toolset,
			Hint: "the call was cancelled or ran out of time; retry it if the caller still needs the result"}
	}
	return &ToolError{Code: CodeInternal, Message: err.Error(), Toolset: toolset,
		Hint: "this is a bug in godot-mcp or the toolset; the host log has details"}
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// fromProto converts a plugin's result to MCP. A failure the plugin
// described with a ToolError becomes the same structured error the host
// produces for its own refusals, so callers handle one shape.
func fromProto(res *pb.CallResult, toolset string) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: res.GetIsError(), Content: []mcp.Content{}}
	for _, c := range res.GetContent() {
		switch c := c.GetContent().(type) {
		case *pb.Content_Text:
			out.Content = append(out.Content, &mcp.TextContent{Text: c.Text.GetText()})
		case *pb.Content_Image:
			out.Content = append(out.Content, &mcp.ImageContent{Data: c.Image.GetData(), MIMEType: c.Image.GetMimeType()})
		case *pb.Content_Audio:
			out.Content = append(out.Content, &mcp.AudioContent{Data: c.Audio.GetData(), MIMEType: c.Audio.GetMimeType()})
		}
	}
	if e := res.GetError(); e != nil && res.GetIsError() {
		te := &ToolError{Code: orStr(e.GetCode(), CodeToolError), Message: e.GetMessage(), Hint: e.GetHint(),
			Required: e.GetRequired(), Toolset: toolset, Source: SourcePlugin}
		out.StructuredContent = te
		if len(out.Content) == 0 {
			out.Content = []mcp.Content{&mcp.TextContent{Text: te.Text()}}
		}
		return out
	}
	if sc := res.GetStructuredContentJson(); len(sc) > 0 {
		if !isJSONObject(sc) {
			// MCP requires structuredContent to be an object; passing
			// anything else on would break the client, not the plugin.
			te := &ToolError{Code: CodePluginBadResult, Toolset: toolset,
				Message: fmt.Sprintf("toolset %q returned structured content that is not a JSON object", toolset),
				Hint:    "report this to the toolset's author: structured content must be a JSON object; the tool's text output follows"}
			out.IsError = true
			out.StructuredContent = te
			out.Content = append([]mcp.Content{&mcp.TextContent{Text: te.Text()}}, out.Content...)
			return out
		}
		out.StructuredContent = json.RawMessage(sc)
	}
	return out
}

// isJSONObject reports whether b is one valid JSON object.
func isJSONObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// jsonResult renders a successful core-tool answer: v as structured content
// and, for clients that read only text, the same value as indented JSON
// after a one-line summary.
func jsonResult(summary string, v any) *mcp.CallToolResult {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return toolError(err, gate.Core).Result()
	}
	text := string(b)
	if summary != "" {
		text = summary + "\n" + text
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(b),
	}
}
