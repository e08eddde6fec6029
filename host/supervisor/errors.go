package supervisor

import "fmt"

// Error codes. They are stable: the server turns them into structured tool
// errors and agents and tests match on them.
const (
	// CodeNotRunning: the toolset is not started (never enabled, disabled,
	// or stopped while the call ran).
	CodeNotRunning = "PLUGIN_NOT_RUNNING"
	// CodeStartFailed: the plugin process could not be started, did not
	// complete the handshake in time, or refused Configure.
	CodeStartFailed = "PLUGIN_START_FAILED"
	// CodeUntrusted: the binary failed verification (its sha256 changed).
	CodeUntrusted = "PLUGIN_UNTRUSTED"
	// CodeCrashed: the plugin process died while a call was in flight.
	CodeCrashed = "PLUGIN_CRASHED"
	// CodeCrashLoop: the plugin crashed too often; the supervisor stopped
	// restarting it.
	CodeCrashLoop = "CRASH_LOOP"
	// CodePluginError: the plugin answered a call with an RPC error instead
	// of a result (for example an unknown tool), or broke the call protocol.
	CodePluginError = "PLUGIN_ERROR"
	// CodeCancelled: the caller cancelled the call or its deadline passed.
	// The error unwraps to context.Canceled or context.DeadlineExceeded.
	CodeCancelled = "CALL_CANCELLED"
	// CodeResultTooLarge: the plugin sent a message (a result or a progress
	// event) larger than Options.MaxResultBytes; the host refused it unread.
	CodeResultTooLarge = "RESULT_TOO_LARGE"
	// CodeShutdown: the supervisor is shutting down.
	CodeShutdown = "HOST_SHUTTING_DOWN"
)

// Error is a structured failure of the supervisor. The server renders it for
// the caller, so Message says what happened and Hint how to get going again.
type Error struct {
	Code    string
	Toolset string
	Message string
	Hint    string
	// Detail holds the last lines the plugin wrote to stderr before it died
	// (the panic and its goroutine trace) for logs and bug reports; empty
	// for errors that are not about a dead process.
	Detail string

	cause error
}

// Error implements error.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s", e.Code, e.Message)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Unwrap returns the underlying cause, such as context.DeadlineExceeded for
// CodeCancelled or the catalog's verification error for CodeUntrusted.
func (e *Error) Unwrap() error { return e.cause }

// Hints shared by several errors.
const (
	hintCrashed    = "the toolset will be restarted on the next call; report the panic to the toolset's author"
	hintCrashLoop  = "the toolset crashed %d times within %s and will not be restarted automatically; disable and re-enable it (godot_disable_toolset then godot_enable_toolset) after fixing the cause"
	hintNotRunning = "enable the toolset first (godot_enable_toolset)"
)
