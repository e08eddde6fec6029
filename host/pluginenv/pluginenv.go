// Package pluginenv decides which of the host's environment variables a
// toolset plugin sees. A plugin is third-party code: it must not inherit the
// host's secrets (GODOT_MCP_AUTH_TOKEN, the token_env variables of the
// policy, cloud credentials the operator happened to export), so it starts
// from an allow list and the operator adds names explicitly.
//
//	env := pluginenv.Build(os.Environ(), pluginenv.Options{
//		Pass:   []string{"GODOT_BIN"},           // the operator's pass_env
//		Secret: []string{"GODOT_MCP_AUTH_TOKEN"}, // never passed, even if named
//	})
//	cmd.Env = append(env, goPluginVars...)
//
// The allow list is Allowed plus every LC_* variable: what a process needs
// to find programs, a home and a temporary directory, and to speak the
// user's language and time zone. Variables the host defines for the plugin
// (go-plugin's handshake variables, GODOT_MCP_LIFELINE_FD) are added by the
// supervisor after Build; they are never taken from the host's environment.
package pluginenv

import (
	"regexp"
	"slices"
	"strings"
)

// PassEnvVar names a host environment variable holding a comma-separated
// list of further variable names to pass to every plugin. It is the
// command-line operator's equivalent of the policy file's plugins.pass_env,
// and is itself never passed.
const PassEnvVar = "GODOT_MCP_PLUGIN_PASS_ENV"

// Allowed are the variables every plugin gets when the host has them. LC_*
// variables are allowed too (see allowed). GODOT_MCP_GODOT_BIN is the
// product's documented way to name the Godot binary the runtime, export and
// testing toolsets run (a path, never a secret), so operators need not pass
// it by hand. GODOT_MCP_ASSET_IMPORT_FROM and GODOT_MCP_ASSET_IMPORT_MAX_MB
// are the operator's policy for the asset_import toolset (the folders
// outside the project it may copy from, and its size cap): folder names and
// a number, never secrets, and set where no tool call can change them.
// GODOT_MCP_WEB_RUNTIME and GODOT_MCP_CHROMIUM name the web runtime and
// the browser the engine checks run in (paths, like GODOT_MCP_GODOT_BIN).
var Allowed = []string{"PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "TZ", "GODOT_MCP_GODOT_BIN",
	"GODOT_MCP_ASSET_IMPORT_FROM", "GODOT_MCP_ASSET_IMPORT_MAX_MB", "GODOT_MCP_WEB_RUNTIME", "GODOT_MCP_CHROMIUM"}

// never are variables no plugin gets, whatever the operator passes: the
// host's own bearer token and the list of names to pass.
var never = []string{"GODOT_MCP_AUTH_TOKEN", PassEnvVar}

// nameRE is what an environment variable name may look like when the
// operator names one: POSIX portable names.
var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidName reports whether s can name a variable to pass.
func ValidName(s string) bool { return nameRE.MatchString(s) }

// Options say which variables beyond the allow list a plugin gets.
type Options struct {
	// Pass names further variables to pass, exactly (no patterns).
	Pass []string
	// Secret names variables never passed, whatever Pass says: the host's
	// own bearer token and every token_env of the policy.
	Secret []string
}

// allowed reports whether the allow list covers name.
func allowed(name string) bool {
	return slices.Contains(Allowed, name) || strings.HasPrefix(name, "LC_")
}

// Build returns the subset of environ ("KEY=value" strings, as os.Environ
// returns them) a plugin may see, in environ's order. Entries without '='
// are dropped.
func Build(environ []string, o Options) []string {
	out := make([]string, 0, len(Allowed)+len(o.Pass))
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || slices.Contains(o.Secret, name) || slices.Contains(never, name) {
			continue
		}
		if allowed(name) || slices.Contains(o.Pass, name) {
			out = append(out, kv)
		}
	}
	return out
}

// FromEnv returns the names listed in $GODOT_MCP_PLUGIN_PASS_ENV
// (comma-separated, blanks ignored), keeping only valid names.
func FromEnv(getenv func(string) string) []string {
	var out []string
	for _, n := range strings.Split(getenv(PassEnvVar), ",") {
		if n = strings.TrimSpace(n); ValidName(n) {
			out = append(out, n)
		}
	}
	return out
}
