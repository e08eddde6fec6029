package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/bridge"
)

const bridgeTokenUsage = `Usage: godot-mcp bridge-token [--reset | --path]

Prints this user's editor bridge token, creating it on first use: a random
secret in a file only you can read (` + "`--path`" + ` shows where). From then on
every godot-mcp serve of this user requires the Godot editor to send it, so
other users and their processes on this machine cannot pose as your editor.
Web pages are kept out with or without it.

The godot-mcp addon reads the token from its environment; start the editor
with

  ` + bridge.TokenEnv + `="$(godot-mcp bridge-token)" godot --editor --path PROJECT

and restart a host that is already running. ` + bridge.TokenEnv + ` in the host's
environment overrides the file (set it empty to run one host without a
token); delete the file to turn the token off.

Flags:
`

// runBridgeToken implements `godot-mcp bridge-token`.
func runBridgeToken(args []string, stdout, stderr io.Writer) int {
	return bridgeToken(args, stdout, stderr, bridge.DefaultTokenFile)
}

func bridgeToken(args []string, stdout, stderr io.Writer, tokenFile func() (string, error)) int {
	fs := flag.NewFlagSet("godot-mcp bridge-token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	reset := fs.Bool("reset", false, "replace the token with a new one (restart the editor and the hosts with it)")
	path := fs.Bool("path", false, "print the token file's path instead of the token")
	fs.Usage = func() {
		fmt.Fprint(stderr, bridgeTokenUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || (*reset && *path) {
		fmt.Fprintln(stderr, "godot-mcp bridge-token: takes no arguments and at most one of --reset and --path")
		return 2
	}
	file, err := tokenFile()
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp bridge-token: %v\n", err)
		return 1
	}
	if *path {
		fmt.Fprintln(stdout, file)
		return 0
	}
	_, existed, err := bridge.ReadTokenFile(file)
	if err != nil && !*reset {
		fmt.Fprintf(stderr, "godot-mcp bridge-token: %v\n", err)
		return 1
	}
	token, err := bridge.EnsureTokenFile(file, *reset)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp bridge-token: %v\n", err)
		return 1
	}
	if !existed || *reset {
		// On stderr, so that $(godot-mcp bridge-token) captures the token
		// alone while the user still reads what changed.
		fmt.Fprintf(stderr, "godot-mcp bridge-token: wrote a new token to %s; from now on godot-mcp serve requires the editor to send it.\n"+
			"Start the editor with %s=\"$(godot-mcp bridge-token)\" and restart running hosts.\n", file, bridge.TokenEnv)
	}
	fmt.Fprintln(stdout, strings.TrimSpace(token))
	return 0
}
