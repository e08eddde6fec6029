package supervisor

// The supervisor's failures are *sdk.Error with these codes (declared in the
// sdk, like every code): sdk.CodePluginNotRunning, CodePluginStartFailed,
// CodePluginUntrusted, CodePluginCrashed (Detail holds the plugin's last
// stderr lines), CodeCrashLoop, CodePluginError, CodeCallCancelled (Err
// unwraps to context.Canceled or context.DeadlineExceeded) and
// CodeHostShuttingDown. Toolset names the toolset; Source is left to the
// host ("host").

// Hints shared by several errors.
const (
	hintCrashed    = "the toolset will be restarted on the next call; report the panic to the toolset's author"
	hintCrashLoop  = "the toolset crashed %d times within %s and will not be restarted automatically; disable and re-enable it (godot_disable_toolset then godot_enable_toolset) after fixing the cause"
	hintNotRunning = "enable the toolset first (godot_enable_toolset)"
)
