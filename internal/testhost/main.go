// Command testhost is a minimal host for tests: it starts one toolset
// plugin through the supervisor, asks it to spawn a grandchild (the echo
// plugin's "spawn" tool), prints "pid <plugin> <grandchild>" on stdout, and
// waits to be killed. Tests SIGKILL it to check that neither the plugin nor
// what the plugin spawned outlives it.
//
//	testhost NAME PATH [TOOL]
//
// TOOL is the spawning tool, "spawn" by default ("spawn_setsid" starts the
// grandchild in a new session).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
)

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: testhost NAME PATH [TOOL]")
		os.Exit(2)
	}
	tool := "spawn"
	if len(os.Args) == 4 {
		tool = os.Args[3]
	}
	sup := supervisor.New(supervisor.Options{})
	ctx := context.Background()
	if err := sup.Start(ctx, catalog.Entry{Name: os.Args[1], Path: os.Args[2]}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := sup.Call(ctx, os.Args[1], supervisor.CallRequest{Tool: tool, Args: []byte("{}")}, nil)
	if err != nil || res.IsError {
		fmt.Fprintln(os.Stderr, "spawn:", err, res)
		os.Exit(1)
	}
	var child struct {
		PID int `json:"pid"`
	}
	b, _ := json.Marshal(res.Structured)
	if err := json.Unmarshal(b, &child); err != nil {
		fmt.Fprintln(os.Stderr, "spawn result:", err)
		os.Exit(1)
	}
	fmt.Printf("pid %d %d\n", sup.Status(os.Args[1]).PID, child.PID)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	sup.Shutdown(ctx)
}
