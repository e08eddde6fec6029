package pluginenv

import (
	"slices"
	"testing"
)

func TestBuild(t *testing.T) {
	environ := []string{
		"PATH=/bin", "HOME=/root", "TMPDIR=/tmp", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC",
		"GODOT_MCP_AUTH_TOKEN=op", "GODOT_MCP_TOKEN_CI=ci", "AWS_SECRET_ACCESS_KEY=k",
		"GODOT_BIN=/usr/bin/godot", PassEnvVar + "=GODOT_BIN", "=broken", "NOEQUALS",
	}
	got := Build(environ, Options{Pass: []string{"GODOT_BIN", "GODOT_MCP_AUTH_TOKEN", "GODOT_MCP_TOKEN_CI", PassEnvVar}, Secret: []string{"GODOT_MCP_TOKEN_CI"}})
	want := []string{"PATH=/bin", "HOME=/root", "TMPDIR=/tmp", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC", "GODOT_BIN=/usr/bin/godot"}
	if !slices.Equal(got, want) {
		t.Fatalf("Build = %q, want %q", got, want)
	}
	if got := Build(environ, Options{}); slices.Contains(got, "GODOT_BIN=/usr/bin/godot") {
		t.Fatal("a variable nobody passed reached the plugin")
	}
}

func TestFromEnv(t *testing.T) {
	got := FromEnv(func(k string) string {
		if k == PassEnvVar {
			return " GODOT_BIN, ,DISPLAY,bad-name,1X"
		}
		return ""
	})
	if !slices.Equal(got, []string{"GODOT_BIN", "DISPLAY"}) {
		t.Fatalf("FromEnv = %q", got)
	}
}

// The asset_import toolset's policy reaches its plugin without the
// operator passing it by name.
func TestAssetImportPolicyIsPassed(t *testing.T) {
	environ := []string{"GODOT_MCP_ASSET_IMPORT_FROM=/art:/sfx", "GODOT_MCP_ASSET_IMPORT_MAX_MB=8", "OTHER=x"}
	got := Build(environ, Options{})
	want := []string{"GODOT_MCP_ASSET_IMPORT_FROM=/art:/sfx", "GODOT_MCP_ASSET_IMPORT_MAX_MB=8"}
	if !slices.Equal(got, want) {
		t.Fatalf("Build = %q, want %q", got, want)
	}
}
