package sdk

import (
	"encoding/json"
	"fmt"
)

// Result is what a tool returns: content for the caller to read, optional
// structured content for callers that parse it, and whether it is a failure.
// Build one with [Text] or [JSON], or fill it yourself.
type Result struct {
	// Content is what the caller reads: text and images.
	Content []Content
	// Structured is marshalled to JSON and sent as MCP structured content.
	// It must marshal to a JSON object. When Content is empty the SDK adds a
	// text rendering of it for clients that ignore structured content.
	Structured any
	// IsError marks the result as a failure the caller should see. Returning
	// an error from the handler is usually clearer: it sets IsError and a
	// machine-readable code.
	IsError bool
}

// Content is one piece of a result: [TextContent] or [ImageContent].
type Content interface{ isContent() }

// TextContent is plain text.
type TextContent struct {
	Text string
}

// ImageContent is an encoded image, such as a PNG screenshot.
type ImageContent struct {
	Data     []byte
	MIMEType string // for example "image/png"
}

func (TextContent) isContent()  {}
func (ImageContent) isContent() {}

// Text returns a result holding one text, formatted like fmt.Sprintf.
func Text(format string, args ...any) Result {
	return Result{Content: []Content{TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// JSON returns a result whose structured content is v, plus the same value as
// indented JSON text for clients that do not read structured content. v must
// marshal to a JSON object, so use a struct or a map.
func JSON(v any) Result {
	return Result{Content: []Content{TextContent{Text: indentJSON(v)}}, Structured: v}
}

func indentJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		// The send path marshals Structured again and reports the failure
		// as a tool error; the text only needs to be readable.
		return fmt.Sprintf("(result cannot be encoded as JSON: %v)", err)
	}
	return string(b)
}

// Error codes the SDK produces. Tools may use these or their own stable
// upper-case codes.
const (
	// CodeInvalidArgument: the arguments do not match the input schema or
	// make no sense together.
	CodeInvalidArgument = "INVALID_ARGUMENT"
	// CodeToolError: the handler returned a plain error.
	CodeToolError = "TOOL_ERROR"
	// CodeNotFound: something the call names does not exist.
	CodeNotFound = "NOT_FOUND"
	// CodePreconditionFailed: the call cannot run in the current state;
	// Required names what is missing.
	CodePreconditionFailed = "PRECONDITION_FAILED"
	// CodeBridgeDisconnected: no Godot peer (editor or headless) is attached,
	// so [Call.Editor] cannot run.
	CodeBridgeDisconnected = "BRIDGE_DISCONNECTED"
	// CodeCancelled: the caller gave up before the tool finished.
	CodeCancelled = "CANCELLED"
	// CodeTimeout: the Godot editor did not answer a command in time.
	CodeTimeout = "TIMEOUT"
	// CodeInternalError: the Godot editor answered with something that is
	// not a response (the addon's handler most likely hit a GDScript error),
	// or the addon itself reported a failure inside it.
	CodeInternalError = "INTERNAL_ERROR"
)

// Error is a tool failure with a machine-readable code and a hint on how to
// fix it. Return it from a handler; the caller gets an isError result with
// these fields.
type Error struct {
	// Code is a stable upper-case code such as "NOT_FOUND".
	Code string
	// Message says what went wrong.
	Message string
	// Hint says how to fix it, in one sentence.
	Hint string
	// Required names a missing precondition, such as "confirm" or
	// "godot_version"; usually empty.
	Required string
}

// Errorf returns an *Error with the given code and hint and a message
// formatted like fmt.Sprintf.
func Errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Error implements error.
func (e *Error) Error() string {
	s := e.Code + ": " + e.Message
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// text is how the error reads in a result's text content.
func (e *Error) text() string {
	s := e.Message
	if e.Hint != "" {
		s += "\nHint: " + e.Hint
	}
	return s
}
