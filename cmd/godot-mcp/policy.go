package main

import (
	"fmt"
	"io"
)

// runPolicy is a placeholder until its subcommand lands.
func runPolicy(_ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "godot-mcp: this command is not available in this build yet")
	return 2
}
