// Command godot-mcp is the godot-mcp host: an MCP server that gives AI agents
// hands in Godot projects through toolset plugins.
//
//	godot-mcp serve [--project DIR] [--http ADDR]   run the MCP server
//	godot-mcp plugins list|lock|verify              inspect and pin toolset plugins
//	godot-mcp call TOOL --args JSON                 run one tool as an operator
//	godot-mcp policy explain [--profile P]          show what policy exposes and why
//	godot-mcp check [--roundtrip] PATH...           validate Godot text files
//	godot-mcp toolset new NAME [DIR]                scaffold a toolset module
//	godot-mcp bridge-token [--reset|--path]         print the editor bridge token
//	godot-mcp version                               print the version
//
// Each subcommand lives in its own file (serve.go, plugins.go, …) as a
// function run<Name>(args, stdout, stderr) int returning the exit code.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Version is the host version; release builds set it with
// -ldflags "-X main.Version=…".
var Version = "0.1.0-dev"

type command struct {
	run   func(args []string, stdout, stderr io.Writer) int
	short string
}

var commands = map[string]command{
	"serve":        {runServe, "run the MCP server (stdio by default, --http ADDR for streamable HTTP)"},
	"plugins":      {runPlugins, "list, lock and verify the installed toolset plugins"},
	"call":         {runCall, "run one tool through the same gate and policy as agents"},
	"policy":       {runPolicy, "explain which tools the exposure policy shows and withholds"},
	"check":        {runCheck, "parse Godot text files and report errors as file:line:col"},
	"toolset":      {runToolset, "scaffold a new toolset module (toolset new NAME [DIR])"},
	"version":      {runVersion, "print the host version"},
	"bridge-token": {runBridgeToken, "print this user's editor bridge token (creating it), for GODOT_MCP_BRIDGE_TOKEN"},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "godot-mcp: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "godot-mcp: an MCP server that gives AI agents hands in Godot projects.")
	fmt.Fprintln(w, "\nUsage: godot-mcp <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun 'godot-mcp <command> --help' for a command's flags.")
}

func runVersion(_ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "godot-mcp %s\n", Version)
	return 0
}
