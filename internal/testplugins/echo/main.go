// Command echo is a test toolset: one tool per behaviour the host has to
// cope with. It is built by the host's tests, never shipped.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testplugins"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// PanicMessage is what the panic tool panics with; tests look for it.
const PanicMessage = "echo-test: deliberate panic in tool panic"

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type hangIn struct {
	IgnoreTerm   bool `json:"ignore_term,omitempty" jsonschema:"ignore SIGTERM, so only SIGKILL stops the plugin"`
	IgnoreCancel bool `json:"ignore_cancel,omitempty" jsonschema:"keep hanging after the call is cancelled"`
}

type sizeIn struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes"`
}

type slowIn struct {
	Steps int `json:"steps" jsonschema:"how many progress events to send"`
}

type pidOut struct {
	PID  int `json:"pid"`
	PGID int `json:"pgid,omitempty"`
	// SocketDir is where go-plugin put the plugin's Unix socket.
	SocketDir string `json:"socket_dir,omitempty"`
	// Lifeline is what the lifeline descriptor (fd 3) is.
	Lifeline string `json:"lifeline,omitempty"`
	// LifelineEnvLeft is the lifeline variable as the plugin's own code
	// (and anything it starts) sees it: empty, since the SDK removes it.
	LifelineEnvLeft string `json:"lifeline_env_left,omitempty"`
	// CallPipeEnvLeft is the call pipe variable as the plugin's own code
	// sees it: empty, since the SDK removes it.
	CallPipeEnvLeft string `json:"call_pipe_env_left,omitempty"`
}

func main() {
	for _, a := range os.Args[1:] {
		if a == "--describe" {
			countDescribe()
		}
	}
	sdk.Serve(&sdk.Toolset{
		Name:        "echo",
		Version:     "1.0.0",
		Description: "Test toolset that echoes, hangs, panics and spawns processes on request.",
		Godot:       ">= 4.2",
		Tools: []sdk.Tool{
			sdk.NewTool("echo", "Send the text back.", sdk.ReadOnly,
				func(_ context.Context, _ *sdk.Call, in echoIn) (sdk.Result, error) {
					return sdk.Text("%s", in.Text), nil
				}),
			sdk.NewTool("pid", "Report the plugin's pid, process group, socket directory and lifeline.", sdk.ReadOnly,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					out := pidOut{PID: os.Getpid(), PGID: syscall.Getpgrp(), SocketDir: os.Getenv("PLUGIN_UNIX_SOCKET_DIR")}
					// sdk.Serve removes the lifeline variable from the
					// environment once it has read it; the host always passes
					// the lifeline as the first extra file, fd 3.
					out.Lifeline, _ = os.Readlink("/proc/self/fd/3")
					out.LifelineEnvLeft = os.Getenv(wire.LifelineFDEnv)
					out.CallPipeEnvLeft = os.Getenv(callpipe.FDEnv)
					return sdk.JSON(out), nil
				}),
			sdk.NewTool("child_fds", "Start a shell and report the open descriptors it inherited, one 'fd -> target' per line.", sdk.Runtime,
				func(ctx context.Context, _ *sdk.Call, _ struct{}) (sdk.Result, error) {
					out, err := exec.CommandContext(ctx, "/bin/sh", "-c", `for f in /proc/$$/fd/*; do echo "${f##*/} -> $(readlink "$f")"; done`).Output()
					if err != nil {
						return sdk.Result{}, err
					}
					return sdk.Text("%s", out), nil
				}),
			sdk.NewTool("spawn", "Start a grandchild process (sleep 300) and report its pid.", sdk.Runtime,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					cmd := exec.Command("sleep", "300")
					if err := cmd.Start(); err != nil {
						return sdk.Result{}, err
					}
					pid := cmd.Process.Pid
					// Reap it if it ever exits, but never wait for it.
					go func() { _ = cmd.Wait() }()
					return sdk.JSON(pidOut{PID: pid}), nil
				}),
			sdk.NewTool("spawn_setsid", "Start a grandchild (sleep 300) in a new session, outside the plugin's process group, and report its pid.", sdk.Runtime,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					cmd := exec.Command("sleep", "300")
					cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
					if err := cmd.Start(); err != nil {
						return sdk.Result{}, err
					}
					pid := cmd.Process.Pid
					go func() { _ = cmd.Wait() }()
					return sdk.JSON(pidOut{PID: pid}), nil
				}),
			sdk.NewTool("env", "Report the plugin's environment (KEY=value lines).", sdk.ReadOnly,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					return sdk.JSON(map[string][]string{"env": os.Environ()}), nil
				}),
			sdk.NewTool("big", "Answer with a text of the given size.", sdk.ReadOnly,
				func(_ context.Context, _ *sdk.Call, in sizeIn) (sdk.Result, error) {
					return sdk.Text("%s", strings.Repeat("x", in.Bytes)), nil
				}),
			sdk.NewTool("flood", "Write the given number of bytes to stderr, in lines, both to the process's file descriptor 2 and to os.Stderr.", sdk.ReadOnly,
				func(_ context.Context, _ *sdk.Call, in sizeIn) (sdk.Result, error) {
					line := strings.Repeat("f", 99) + "\n"
					for i := 0; i < in.Bytes/len(line); i++ {
						if i%2 == 1 {
							_, _ = io.WriteString(os.Stderr, line)
						} else {
							// fd 2 itself, which the host reads as a pipe
							// (os.Stderr was redirected by go-plugin).
							_, _ = syscall.Write(2, []byte(line))
						}
					}
					return sdk.Text("flooded"), nil
				}),
			sdk.NewTool("alloc", "Allocate and touch the given number of bytes, then answer.", sdk.ReadOnly,
				func(_ context.Context, _ *sdk.Call, in sizeIn) (sdk.Result, error) {
					b := make([]byte, in.Bytes)
					for i := 0; i < len(b); i += 4096 {
						b[i] = 1
					}
					return sdk.Text("allocated %d", len(b)), nil
				}),
			sdk.NewTool("hang", "Block until the call is cancelled (or forever).", sdk.ReadOnly,
				func(ctx context.Context, _ *sdk.Call, in hangIn) (sdk.Result, error) {
					if in.IgnoreTerm {
						signal.Ignore(syscall.SIGTERM)
					}
					if in.IgnoreCancel {
						select {}
					}
					<-ctx.Done()
					return sdk.Result{}, ctx.Err()
				}),
			sdk.NewTool("panic", "Crash the plugin with a panic in a goroutine.", sdk.ReadOnly,
				func(ctx context.Context, _ *sdk.Call, _ struct{}) (sdk.Result, error) {
					// A goroutine, so that no recover in a handler chain can
					// hide it: the process must die.
					go func() { panic(PanicMessage) }()
					<-ctx.Done()
					return sdk.Result{}, ctx.Err()
				}),
			sdk.NewTool("slow", "Report progress steps, then answer done.", sdk.ReadOnly,
				func(ctx context.Context, call *sdk.Call, in slowIn) (sdk.Result, error) {
					for i := range in.Steps {
						call.Progress(float64(i+1), float64(in.Steps), fmt.Sprintf("step %d", i+1))
						select {
						case <-time.After(5 * time.Millisecond):
						case <-ctx.Done():
							return sdk.Result{}, ctx.Err()
						}
					}
					return sdk.Text("done"), nil
				}),
			sdk.NewTool("stdin", "Report what the plugin's file descriptor 0 is.", sdk.ReadOnly,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					target, err := os.Readlink("/proc/self/fd/0")
					if err != nil {
						return sdk.Result{}, err
					}
					return sdk.Text("%s", target), nil
				}),
			sdk.NewTool("log", "Log the text through the host's log service.", sdk.ReadOnly,
				func(_ context.Context, call *sdk.Call, in echoIn) (sdk.Result, error) {
					call.Logger().Info(in.Text)
					fmt.Fprintln(os.Stderr, "stderr: "+in.Text)
					return sdk.Text("logged"), nil
				}),
			sdk.NewEditorTool("editor", "Run an editor command through the host.", sdk.ReadOnly,
				func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in echoIn) (sdk.Result, error) {
					var out map[string]any
					if err := ed.Apply(ctx, in.Text, map[string]any{}, &out); err != nil {
						return sdk.Result{}, err
					}
					return sdk.JSON(out), nil
				}),
		},
	})
}

// countDescribe appends a line to the file named by DescribeLogEnv, so a
// test can tell whether the catalog ran --describe.
func countDescribe() {
	path := os.Getenv(testplugins.DescribeLogEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	fmt.Fprintln(f, "describe")
	_ = f.Close()
}
