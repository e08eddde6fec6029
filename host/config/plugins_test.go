package config

import (
	"slices"
	"strings"
	"testing"
)

func TestPluginsTable(t *testing.T) {
	c := mustLoad(t, full+`
[plugins]
pass_env = ["GODOT_BIN"]
refuse_unsafe_permissions = true
memory_limit_mb = 512
max_result_mb = 8
max_concurrent_calls = 4

[plugins.toolsets.runtime]
pass_env = ["DISPLAY"]
memory_limit_mb = 2048
`, fullEnv)
	if got := c.PluginPassEnv("runtime"); !slices.Equal(got, []string{"GODOT_BIN", "DISPLAY"}) {
		t.Errorf("runtime pass_env %v", got)
	}
	if got := c.PluginPassEnv("scene_edit"); !slices.Equal(got, []string{"GODOT_BIN"}) {
		t.Errorf("scene_edit pass_env %v", got)
	}
	if c.PluginMemoryLimit("runtime") != 2048<<20 || c.PluginMemoryLimit("scene_edit") != 512<<20 {
		t.Errorf("memory limits %d %d", c.PluginMemoryLimit("runtime"), c.PluginMemoryLimit("scene_edit"))
	}
	if !c.Plugins.RefuseUnsafePermissions || c.Plugins.MaxResultMB != 8 || c.Plugins.MaxConcurrentCalls != 4 {
		t.Errorf("plugins %+v", c.Plugins)
	}
	if got := c.SecretEnv(); !slices.Equal(got, []string{AuthTokenEnv, "GODOT_MCP_TOKEN_CI", "GODOT_MCP_TOKEN_DEV"}) {
		t.Errorf("SecretEnv %v", got)
	}
}

// Passing a secret to plugins, or a name that is not a variable name, is an
// error naming the key.
func TestPluginsTableErrors(t *testing.T) {
	msg := loadErr(t, full+`
[plugins]
pass_env = ["GODOT_MCP_TOKEN_CI", "GODOT_MCP_AUTH_TOKEN", "AWS_*"]
memory_limit_mb = -1

[plugins.toolsets.Bad-Name]
pass_env = ["1X"]
`, fullEnv)
	for _, want := range []string{
		"plugins.pass_env[0]: GODOT_MCP_TOKEN_CI holds a secret",
		"plugins.pass_env[1]: GODOT_MCP_AUTH_TOKEN holds a secret",
		`plugins.pass_env[2]: "AWS_*" is not an environment variable name`,
		"plugins.memory_limit_mb: must not be negative",
		"plugins.toolsets.Bad-Name: toolset name",
		`plugins.toolsets.Bad-Name.pass_env[0]: "1X"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}
