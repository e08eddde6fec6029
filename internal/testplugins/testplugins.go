// Package testplugins holds toolset plugins that exist only for tests, and
// Build, which compiles them for a test's TestMain.
//
//   - echo: an SDK toolset with one tool per behaviour the host must handle
//     (answer, spawn a grandchild, hang, panic, report progress, report its
//     stdin, use the host services).
//   - noisy: an SDK toolset that prints to stdout before the handshake.
//   - bare: a go-plugin server written directly against the proto, without
//     the SDK; the baseline for benchmarks, and a plugin that can answer a
//     call with a raw gRPC status (tools pid and status).
//
// Tests that start real processes build them once per package in TestMain:
//
//	bins, err := testplugins.Build(dir, "echo", "noisy")
//	// bins["echo"] == dir + "/godot-mcp-toolset-echo"
package testplugins

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Module is the import path of the module holding the test plugins.
const Module = "github.com/godot-mcp/godot-mcp"

// DescribeLogEnv names a file to which the echo plugin appends a line every
// time it runs with --describe, so tests can count describe runs.
const DescribeLogEnv = "GODOT_MCP_TEST_DESCRIBE_LOG"

// Build compiles the named test plugins into dir as
// godot-mcp-toolset-<name> and returns their paths by name.
func Build(dir string, names ...string) (map[string]string, error) {
	pkgs := map[string]string{}
	for _, n := range names {
		pkgs[Module+"/internal/testplugins/"+n] = "godot-mcp-toolset-" + n
	}
	paths, err := BuildCommands(dir, pkgs)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, n := range names {
		out[n] = paths[Module+"/internal/testplugins/"+n]
	}
	return out, nil
}

// BuildCommands compiles main packages (import path → output file name)
// into dir with one go build, and returns the binaries' paths by import
// path.
func BuildCommands(dir string, pkgs map[string]string) (map[string]string, error) {
	staging, err := os.MkdirTemp(dir, "build")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)
	args := []string{"build", "-o", staging + string(filepath.Separator)}
	for p := range pkgs {
		args = append(args, p)
	}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	cmd.Stdout = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("building test plugins: %w", err)
	}
	out := map[string]string{}
	for p, name := range pkgs {
		dst := filepath.Join(dir, name)
		if err := os.Rename(filepath.Join(staging, filepath.Base(p)), dst); err != nil {
			return nil, err
		}
		out[p] = dst
	}
	return out, nil
}

// HostWithToolset builds the godot-mcp host and the first-party toolset
// name (plugins/<name>) once into a new temporary directory, with the
// plugin alone in a plugins directory: what a test that drives one
// toolset through the real host needs. It returns the host binary and
// the plugins directory.
func HostWithToolset(name string) (hostBin, pluginsDir string, err error) {
	dir, err := os.MkdirTemp("", name+"-host-test")
	if err != nil {
		return "", "", err
	}
	pkg := Module + "/plugins/" + name
	paths, err := BuildCommands(dir, map[string]string{Module + "/cmd/godot-mcp": "godot-mcp", pkg: "godot-mcp-toolset-" + name})
	if err != nil {
		return "", "", err
	}
	plugins := filepath.Join(dir, "plugins")
	if err := os.Mkdir(plugins, 0o700); err != nil {
		return "", "", err
	}
	if err := os.Rename(paths[pkg], filepath.Join(plugins, "godot-mcp-toolset-"+name)); err != nil {
		return "", "", err
	}
	return paths[Module+"/cmd/godot-mcp"], plugins, nil
}
