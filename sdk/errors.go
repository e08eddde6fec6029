package sdk

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error codes. This is the one list of them: toolsets, the SDK and the host
// all use these constants, so a code means the same thing wherever it comes
// from. Tools may add their own stable upper-case codes.
const (
	// CodeInvalidArgument: the arguments do not match the input schema or
	// make no sense together.
	CodeInvalidArgument = "INVALID_ARGUMENT"
	// CodeToolError: the handler returned a plain error, or a plugin sent a
	// failure without a code.
	CodeToolError = "TOOL_ERROR"
	// CodeNotFound: something the call names does not exist.
	CodeNotFound = "NOT_FOUND"
	// CodePreconditionFailed: the call cannot run in the current state;
	// Required names what is missing.
	CodePreconditionFailed = "PRECONDITION_FAILED"
	// CodeBridgeDisconnected: no Godot peer (editor or headless) is attached,
	// so [Call.Editor] cannot run.
	CodeBridgeDisconnected = "BRIDGE_DISCONNECTED"
	// CodeCancelled: the caller gave up before the tool finished (reported
	// by the toolset itself).
	CodeCancelled = "CANCELLED"
	// CodeTimeout: something the tool waited for (an editor answer, a
	// process) did not come within its deadline.
	CodeTimeout = "TIMEOUT"

	// CodeUnknownToolset: a toggle names a toolset that is not installed.
	CodeUnknownToolset = "UNKNOWN_TOOLSET"
	// CodeToolsetDisabled: the tool's toolset is not enabled; the hint
	// names the call that enables it.
	CodeToolsetDisabled = "TOOLSET_DISABLED"
	// CodeToolNotExposed: the exposure policy withholds the tool from this
	// caller; Required names the layer ("layer:profile").
	CodeToolNotExposed = "TOOL_NOT_EXPOSED"

	// CodePluginNotRunning: the toolset's plugin is not started (never
	// enabled, disabled, or stopped while the call ran).
	CodePluginNotRunning = "PLUGIN_NOT_RUNNING"
	// CodePluginStartFailed: the plugin process could not be started, did
	// not complete the handshake in time, or refused Configure.
	CodePluginStartFailed = "PLUGIN_START_FAILED"
	// CodePluginUntrusted: the plugin binary failed verification.
	CodePluginUntrusted = "PLUGIN_UNTRUSTED"
	// CodePluginCrashed: the plugin process died while a call was in flight.
	CodePluginCrashed = "PLUGIN_CRASHED"
	// CodeCrashLoop: the plugin crashed too often and is no longer
	// restarted.
	CodeCrashLoop = "CRASH_LOOP"
	// CodePluginError: the plugin answered with an RPC error instead of a
	// result, or broke the call protocol.
	CodePluginError = "PLUGIN_ERROR"
	// CodePluginBadResult: a plugin's result broke the result contract (its
	// structured content is not a JSON object).
	CodePluginBadResult = "PLUGIN_BAD_RESULT"
	// CodeResultTooLarge: the plugin sent a message (a result or a
	// progress event) larger than the host accepts; it was refused unread.
	CodeResultTooLarge = "RESULT_TOO_LARGE"
	// CodeCallCancelled: the host cancelled the call because its caller
	// gave up or its deadline passed.
	CodeCallCancelled = "CALL_CANCELLED"
	// CodeHostShuttingDown: the host is shutting down.
	CodeHostShuttingDown = "HOST_SHUTTING_DOWN"
	// CodeInternalError: the host, the editor or a tool failed in a way the
	// caller cannot fix (a bug, an I/O error mid-write, a broken
	// invariant); the log has details. The editor addon uses the same code.
	CodeInternalError = "INTERNAL_ERROR"
	// CodeConflict: a workspace write was based on a version of a file that
	// is no longer the one on disk (another toolset or the user's editor
	// changed it since it was read), or an undo/redo found a file changed
	// since the action. Nothing was written; read again and re-apply.
	CodeConflict = "CONFLICT"
)

// Values of [Error.Required] the host sets.
const (
	// RequiredConfirm: a destructive tool was called without confirm=true.
	RequiredConfirm = "confirm"
	// RequiredGodotVersion: the Godot version does not satisfy the
	// toolset's constraint.
	RequiredGodotVersion = "godot_version"
	// RequiredToolsetEnabled: the tool's toolset must be enabled first.
	RequiredToolsetEnabled = "toolset_enabled"
)

// Values of [Error.Source].
const (
	// SourceHost: the host refused or failed the call (policy, gate,
	// argument validation, plugin supervision). A plugin cannot produce it.
	SourceHost = "host"
	// SourcePlugin: the toolset's own tool reported the failure. Its code
	// is passed on as the toolset sent it, even one that looks like a host
	// code; Source tells them apart.
	SourcePlugin = "plugin"
)

// Error is the one structured failure of godot-mcp. A tool handler returns
// it; it crosses the plugin boundary as the wire ToolError, the host's own
// refusals (policy, gate, arguments, supervision) are made of it too, and
// the caller gets it as an isError tool result whose text is [Error.Text].
type Error struct {
	// Code is a stable upper-case code such as "NOT_FOUND".
	Code string `json:"code"`
	// Message says what went wrong.
	Message string `json:"message"`
	// Hint says how to fix it, in one sentence.
	Hint string `json:"hint,omitempty"`
	// Required names a missing precondition, such as "confirm" or
	// "godot_version"; usually empty.
	Required string `json:"required,omitempty"`

	// Toolset is the toolset the failure concerns. The host fills it in;
	// toolsets leave it empty.
	Toolset string `json:"toolset,omitempty"`
	// Source is SourceHost or SourcePlugin. The host fills it in; it is
	// rendered as "host" when empty, so only the host's conversion of a
	// plugin's answer can mark an error as the plugin's.
	Source string `json:"source"`
	// Detail is for logs and bug reports, never shown to the caller: the
	// last lines a crashed plugin wrote to stderr, for instance.
	Detail string `json:"-"`
	// Err is the underlying cause, for errors.Is and errors.As
	// (context.Canceled for a cancelled call, say); never shown.
	Err error `json:"-"`
}

// Errorf returns an *Error with the given code and hint and a message
// formatted like fmt.Sprintf.
func Errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// Error implements error. It is the same text the caller reads.
func (e *Error) Error() string { return e.Text() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Text is the one rendering of an error: the code first, so a client that
// shows only text still shows it, then the message; the hint and the
// missing precondition each on their own line.
//
//	INVALID_ARGUMENT: depth must be between 1 and 20, got 99
//	Hint: check the arguments against the input schema of godot_project_get_filesystem_tree
func (e *Error) Text() string {
	var b strings.Builder
	code := e.Code
	if code == "" {
		code = CodeToolError
	}
	b.WriteString(code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.Hint != "" {
		b.WriteString("\nHint: ")
		b.WriteString(e.Hint)
	}
	if e.Required != "" {
		b.WriteString("\nRequired: ")
		b.WriteString(e.Required)
	}
	return b.String()
}

// MarshalJSON renders e with Source defaulted to SourceHost.
func (e *Error) MarshalJSON() ([]byte, error) {
	type plain Error
	p := plain(*e)
	if p.Source == "" {
		p.Source = SourceHost
	}
	return json.Marshal(p)
}

// maxEcho is how much of a caller-supplied string an error message quotes.
const maxEcho = 64

// QuoteInput quotes a caller-supplied string for an error message, cut to a
// length a person reads ("abc…" (3145728 bytes)): a 3 MB argument is never
// echoed back whole.
func QuoteInput(v string) string {
	if len(v) <= maxEcho {
		return strconv.Quote(v)
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(v[:cut]), len(v))
}
