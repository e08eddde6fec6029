package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/sdk"
	toolargs "github.com/godot-mcp/godot-mcp/sdk/args"
	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

const callUsage = `Usage: godot-mcp call TOOL [--args JSON] [--confirm] [--dry-run] [--json] [flags]

Runs one tool as the operator, through the same gate and policy as an
agent's call: the exposure policy (with transport "cli", which may also run
cli-only tools), the Godot version check, argument validation against the
tool's schema, and confirm for destructive tools.

The call runs in its own short-lived host, not in a running server. If the
tool's toolset is not enabled by default, call enables it for the duration
of the command (its plugin starts and stops with it), and so the toolsets
of the commands a godot_composite_run_commands list names; a running
server's enabled set is not touched. Each listed command is still held to
the policy and confirm like a call of its own tool.

TOOL is the exposed name, e.g. godot_scene_edit_create_node or
godot_list_toolsets. The text of the result goes to stdout (--json prints
the whole MCP result). Exit status: 0 on success, 1 when the tool failed or
was refused, 2 on bad usage.

Flags:
`

// runCall implements `godot-mcp call`.
func runCall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("godot-mcp call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs, "warn") // a one-shot command: only what needs attention
	argsJSON := fs.String("args", "{}", "tool arguments as a JSON `object`")
	confirm := fs.Bool("confirm", false, "set confirm=true (required by destructive tools)")
	dryRun := fs.Bool("dry-run", false, "set dry_run=true: report what would change, change nothing")
	asJSON := fs.Bool("json", false, "print the whole MCP result as JSON")
	fs.Usage = func() {
		fmt.Fprint(stderr, callUsage)
		fs.PrintDefaults()
	}
	// Accept the tool name before or after the flags.
	var tool string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		tool, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if tool == "" && fs.NArg() > 0 {
		tool = fs.Arg(0)
	}
	if tool == "" || fs.NArg() > 1 || (fs.NArg() == 1 && tool != fs.Arg(0)) {
		fmt.Fprintln(stderr, "godot-mcp call: name exactly one tool, e.g. godot-mcp call godot_list_toolsets")
		return 2
	}
	// The same check as the server's: one object, no key named twice (a
	// map would keep the last of two, and the server would never see the
	// first).
	arguments, err := toolargs.Decode([]byte(*argsJSON))
	if err != nil || strings.TrimSpace(*argsJSON) == "null" {
		msg := "must be a JSON object"
		if err != nil {
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "godot-mcp call: --args: %s, e.g. --args '{\"path\":\"res://main.tscn\"}'\n", msg)
		return 2
	}
	if *confirm {
		arguments[server.ArgConfirm] = true
	}
	if *dryRun {
		arguments[server.ArgDryRun] = true
	}
	opts, err := hf.options(stderr, exposure.TransportCLI)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp call: %v\n", err)
		return 2
	}
	opts.NoSeed = true

	ctx, stop := signalContext()
	defer stop()
	h, err := host.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp call: %v\n", err)
		return 1
	}
	defer closeHost(ctx, h, stderr, "godot-mcp call")

	if _, known := h.Server.ToolsetOf(tool); !known {
		fmt.Fprintln(stderr, unknownToolMessage(tool, h.Server.ToolNames()))
		return 1
	}
	res, err := callOnce(ctx, h, tool, arguments)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp call: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		out := stdout
		if res.IsError {
			out = stderr
		}
		fmt.Fprintln(out, resultText(res))
	}
	if res.IsError {
		return 1
	}
	return 0
}

// callOnce enables the tool's toolset if needed (and those of the commands
// a run_commands list names) and runs the call through
// an in-memory MCP session, so it takes exactly the path an agent's call
// takes.
func callOnce(ctx context.Context, h *host.Host, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	var off []string
	for _, ts := range h.Server.CallToolsets(tool, args) {
		if !h.Gate.Enabled(ts) {
			off = append(off, ts)
		}
	}
	if len(off) > 0 {
		if _, err := h.Gate.Enable(ctx, gate.Request{Toolsets: off, By: exposure.TransportCLI}); err != nil {
			var se *sdk.Error
			if errors.As(err, &se) {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: se.Text()}}, StructuredContent: se}, nil
			}
			return nil, err
		}
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := h.Server.Connect(ctx, st)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "godot-mcp-call", Version: Version}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
}

// unknownToolMessage explains that no installed toolset has tool and names
// the installed tools that look closest (same toolset prefix, or sharing the
// last word), so a typo or a missing plugin is a one-step fix.
func unknownToolMessage(tool string, names []string) string {
	var near []string
	if c := suggest.Closest(tool, names); c != "" {
		near = append(near, c)
	}
	last := tool[strings.LastIndexByte(tool, '_')+1:]
	for _, n := range names {
		if slices.Contains(near, n) {
			continue
		}
		if strings.HasPrefix(n, tool) || strings.HasPrefix(tool, n) ||
			(last != "" && strings.HasSuffix(n, "_"+last)) {
			near = append(near, n)
		}
	}
	msg := fmt.Sprintf("godot-mcp call: no installed toolset has a tool %q.", tool)
	if len(near) > 0 {
		msg += fmt.Sprintf("\nDid you mean: %s?", strings.Join(near, ", "))
	}
	return msg + "\nTool names are godot_<toolset>_<tool>; \"godot-mcp plugins list\" shows the installed toolsets and \"godot-mcp call godot_list_tools_by_safety_class\" every tool."
}

// resultText renders a result for a terminal: text as is (JSON, which tools
// send compact for agents, indented for people), other content summarised.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, indentIfJSON(c.Text))
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes; use --json to get it]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes; use --json to get it]", c.MIMEType, len(c.Data)))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n")
}

func indentIfJSON(text string) string {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return text
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(t), "", "  ") != nil {
		return text
	}
	return b.String()
}
