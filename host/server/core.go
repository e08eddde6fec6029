package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/args"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// coreDef is one core tool, described in one place: its name, safety
// class and description, its arguments type (the input schema is derived
// from it by sdk.SchemaFor, as for plugin tools) and its function. The
// policy evaluates core tools like any other (CoreTools): a read-only
// profile does not get godot_enable_toolset.
type coreDef struct {
	name        string
	class       manifest.SafetyClass
	description string
	schema      func() (*jsonschema.Schema, error)
	bind        func(s *Server) coreRun
}

// coreTool defines a core tool with arguments of type In.
func coreTool[In any](name string, class manifest.SafetyClass, description string, f func(s *Server, ctx context.Context, req *mcp.CallToolRequest, in In) *mcp.CallToolResult) coreDef {
	return coreDef{
		name:        name,
		class:       class,
		description: description,
		schema:      sdk.SchemaFor[In],
		bind: func(s *Server) coreRun {
			return func(ctx context.Context, req *mcp.CallToolRequest, args map[string]any) *mcp.CallToolResult {
				// The arguments passed the schema; decoding them into In
				// cannot fail for a schema derived from In.
				var in In
				b, err := json.Marshal(args)
				if err == nil {
					b, err = sdk.ResolveAliases[In](b)
				}
				if err == nil {
					err = json.Unmarshal(b, &in)
				}
				if err != nil {
					return errorResult(asError(err, gate.Core), false)
				}
				return f(s, ctx, req, in)
			}
		},
	}
}

// coreDefs are the host's own tools: the one list of them.
var coreDefs = []coreDef{
	coreTool("godot_list_toolsets", manifest.ReadOnly,
		"List every installed toolset: whether it is enabled, what it does, the Godot versions it supports, how many tools it has and whether its plugin runs. Starts nothing.",
		(*Server).listToolsets),
	coreTool("godot_enable_toolset", manifest.Mutating,
		"Enable toolsets so their tools appear. The result lists every tool that became visible, with its input schema, so you can call them without listing again. Enabling is shared by every client of this server and is idempotent.",
		(*Server).enableToolset),
	coreTool("godot_disable_toolset", manifest.Mutating,
		"Disable toolsets: their tools disappear and their plugin processes stop. Idempotent; core cannot be disabled.",
		(*Server).disableToolset),
	coreTool("godot_get_server_info", manifest.ReadOnly,
		"Describe this server: host and protocol versions, transport, the Godot version and where it came from, every toolset with its plugin process (pid, state, restarts) and the recent events (what was enabled, refused, filtered, crashed).",
		(*Server).serverInfo),
	coreTool("godot_health_check", manifest.ReadOnly,
		"Check that the enabled toolsets' plugins run, that the Godot version is known and that no installed plugin was refused. Reports ok, degraded or unhealthy with one line per problem.",
		(*Server).healthCheck),
	coreTool("godot_list_tools_by_safety_class", manifest.ReadOnly,
		"List the tools you may use grouped by safety class (read_only, mutating, destructive, runtime), including tools of toolsets that are not enabled yet. Destructive tools need confirm=true for a real run; mutating and destructive tools accept dry_run=true, which needs no confirm.",
		(*Server).toolsByClass),
}

func init() { coreDefs = append(coreDefs, historyDefs...) }

type noArgs struct{}

type enableArgs struct {
	Toolsets []string `json:"toolsets,omitempty" jsonschema:"Toolset names, as godot_list_toolsets shows them, e.g. [\"scene_edit\"]. Give this or category."`
	Category string   `json:"category,omitempty" jsonschema:"One toolset name: the same as toolsets with one entry (the spelling other Godot MCP servers use)."`
}

type disableArgs struct {
	Toolsets []string `json:"toolsets,omitempty" jsonschema:"Toolset names to disable. Give this or category."`
	Category string   `json:"category,omitempty" jsonschema:"One toolset name: the same as toolsets with one entry."`
}

// toggleNames joins the two spellings of a toggle's toolsets.
func toggleNames(toolsets []string, category, tool string) ([]string, error) {
	names := toolsets
	if category != "" {
		names = append(slices.Clone(toolsets), category)
	}
	if len(names) == 0 {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "toolsets",
			Message: tool + " needs the toolsets to change",
			Hint:    `pass toolsets, e.g. {"toolsets": ["scene_edit"]}, or one name as category; godot_list_toolsets lists them`}
	}
	return names, nil
}

type infoArgs struct {
	Events int `json:"events,omitempty" jsonschema:"How many recent events to include." default:"50" minimum:"0" maximum:"500"`
}

type classArgs struct {
	Class string `json:"class,omitempty" jsonschema:"Only this class: read_only, mutating, destructive or runtime."`
}

// CoreTools returns the core tools as the policy sees them: candidates
// like any other, for tools/list and for `godot-mcp policy explain`.
func CoreTools() []exposure.Tool {
	out := make([]exposure.Tool, len(coreDefs))
	for i, d := range coreDefs {
		out[i] = exposure.Tool{Name: d.name, Toolset: gate.Core, Class: d.class, Scope: manifest.AgentScope}
	}
	return out
}

// CoreToolNames are the exposed names of the core tools, which no toolset
// may take (catalog.Options.Reserved).
func CoreToolNames() []string {
	out := make([]string, len(coreDefs))
	for i, d := range coreDefs {
		out[i] = d.name
	}
	return out
}

// isCore reports whether name is a core tool's: core tools are registered
// after the toolsets (they need the server), yet their names are theirs.
func isCore(name string) bool {
	for _, d := range coreDefs {
		if d.name == name {
			return true
		}
	}
	return false
}

// addCoreTools registers the core tools and shows them: core is always on.
func (s *Server) addCoreTools() {
	for i, ref := range CoreTools() {
		def := coreDefs[i]
		schema, err := def.schema()
		if err != nil {
			panic(fmt.Sprintf("core tool %s: %v", ref.Name, err)) // a bug in this file
		}
		refineCoreSchema(ref.Name, schema)
		raw, err := json.Marshal(schema)
		if err != nil {
			panic(fmt.Sprintf("core tool %s: %v", ref.Name, err))
		}
		ann := annotations(ref.Class)
		ann.IdempotentHint = !nonIdempotent[ref.Name] // listing, and toggles to a state; not undo
		title := coreTitles[ref.Name]
		if title == "" {
			title = sdk.DefaultTitle(strings.TrimPrefix(ref.Name, "godot_"))
		}
		t := &mcp.Tool{
			Name:        ref.Name,
			Title:       title,
			Description: def.description,
			InputSchema: json.RawMessage(raw),
			Annotations: ann,
			Meta:        mcp.Meta{MetaToolset: gate.Core, MetaSafetyClass: string(ref.Class)},
		}
		input, err := resolveSchema(raw)
		if err != nil {
			panic(fmt.Sprintf("core tool %s: %v", ref.Name, err)) // a bug in this file
		}
		e := &toolEntry{ref: ref, bare: strings.TrimPrefix(ref.Name, "godot_"), tool: t, input: input, check: args.Compile(input), core: def.bind(s)}
		s.reg.add(e)
		if err := addTool(s.mcp, t, mirrorOnly); err != nil {
			panic(fmt.Sprintf("core tool %s: %v", ref.Name, err)) // a bug in this file
		}
	}
}

// coreTitles are the core tools' titles, which clients list instead of the
// names (TestToolSchemasSuitEveryClient checks that no tool lacks one).
var coreTitles = map[string]string{
	"godot_list_toolsets":              "List toolsets",
	"godot_enable_toolset":             "Enable toolsets",
	"godot_disable_toolset":            "Disable toolsets",
	"godot_get_server_info":            "Server info",
	"godot_health_check":               "Health check",
	"godot_list_tools_by_safety_class": "List tools by safety class",
	"godot_list_history":               "List undo history",
	"godot_undo":                       "Undo",
	"godot_redo":                       "Redo",
	"godot_read_resource":              "Read a godot:// resource",
	"godot_debug_workflow":             "Run a scene and say what failed",
}

// refineCoreSchema adds what struct tags cannot say: toggles need at least
// one name, and the class filter has a fixed set of values.
func refineCoreSchema(name string, s *jsonschema.Schema) {
	switch name {
	case "godot_enable_toolset", "godot_disable_toolset":
		one := 1
		s.Properties["toolsets"].MinItems = &one
		s.Properties["toolsets"].Type, s.Properties["toolsets"].Types = "array", nil
	case "godot_list_tools_by_safety_class":
		for _, c := range manifest.Classes {
			s.Properties["class"].Enum = append(s.Properties["class"].Enum, string(c))
		}
	}
}

// by names the caller in events: "stdio", "cli", "http:ci-bot".
func by(c exposure.Caller) string {
	if c.Principal != "" {
		return c.Transport + ":" + c.Principal
	}
	return c.Transport
}

type toolsetView struct {
	Name         string     `json:"name"`
	Enabled      bool       `json:"enabled"`
	Description  string     `json:"description"`
	Version      string     `json:"version,omitempty"`
	Godot        string     `json:"godot_constraint,omitempty"`
	ToolCount    int        `json:"tool_count"`
	VisibleTools int        `json:"visible_tools"`
	State        string     `json:"state"`
	Blocked      *sdk.Error `json:"blocked,omitempty"`
	EnableCall   string     `json:"enable_call,omitempty"`
	// EditorOnly and HeadlessOnly name the tools that work in one mode
	// only; every other tool works with an editor attached and without.
	EditorOnly   []string `json:"editor_only,omitempty"`
	HeadlessOnly []string `json:"headless_only,omitempty"`
}

const coreDescription = "Toolset management and diagnostics; always enabled."

func enableCall(name string) string {
	return fmt.Sprintf(`godot_enable_toolset({"toolsets":["%s"]})`, name)
}

func (s *Server) pluginState(toolset string) supervisor.Status {
	if s.opts.Plugins == nil {
		return supervisor.Status{State: supervisor.Stopped}
	}
	return s.opts.Plugins.Status(toolset)
}

// visibleCount is how many of a toolset's tools the caller would see.
func (s *Server) visibleCount(caller exposure.Caller, toolset string) int {
	return len(s.policy.Evaluate(caller, s.reg.refs(toolset)).Visible)
}

func (s *Server) listToolsets(_ context.Context, req *mcp.CallToolRequest, _ noArgs) *mcp.CallToolResult {
	caller := s.caller(req)
	views := []toolsetView{{
		Name: gate.Core, Enabled: true, Description: coreDescription,
		ToolCount: len(s.reg.toolset(gate.Core)), VisibleTools: s.visibleCount(caller, gate.Core), State: "in_process",
	}}
	var lines []string
	for _, ts := range s.opts.Gate.Toolsets() {
		v := toolsetView{
			Name: ts.Name, Enabled: ts.Enabled, Description: ts.Description, Version: ts.Version,
			Godot: ts.Godot, ToolCount: ts.Tools, VisibleTools: s.visibleCount(caller, ts.Name),
			State:      string(s.pluginState(ts.Name).State),
			EditorOnly: ts.EditorOnly, HeadlessOnly: ts.HeadlessOnly,
		}
		if ts.Blocked != nil {
			v.Blocked = asError(ts.Blocked, ts.Name)
		}
		mark := "on "
		if !ts.Enabled {
			mark = "off"
			v.EnableCall = enableCall(ts.Name)
		}
		line := fmt.Sprintf("[%s] %s (%d tools): %s", mark, ts.Name, ts.Tools, ts.Description)
		if len(ts.EditorOnly) > 0 {
			line += " Needs a Godot editor attached: " + strings.Join(ts.EditorOnly, ", ") + "."
		}
		if len(ts.HeadlessOnly) > 0 {
			line += " Headless only: " + strings.Join(ts.HeadlessOnly, ", ") + "."
		}
		lines = append(lines, line)
		views = append(views, v)
	}
	godot, source := s.opts.Gate.GodotVersion()
	out := map[string]any{
		"toolsets":      views,
		"enabled":       s.opts.Gate.EnabledSet(),
		"godot_version": map[string]string{"version": godot, "source": source},
	}
	summary := fmt.Sprintf("%d toolsets installed besides core; enable one with godot_enable_toolset({\"toolsets\":[\"name\"]}).\n%s",
		len(views)-1, strings.Join(lines, "\n"))
	if s.opts.Problems != nil {
		// Refused plugins (a name clash, a bad manifest, unsafe
		// permissions): shown so a missing toolset is never a mystery.
		view := s.diagView(caller)
		var refused []string
		for _, p := range s.opts.Problems() {
			refused = append(refused, view.scrub(p.Error()))
		}
		if len(refused) > 0 {
			out["refused"] = refused
			summary += fmt.Sprintf("\n%d installed plugins were refused:\n%s", len(refused), strings.Join(refused, "\n"))
		}
	}
	return jsonResult(summary, out)
}

func (s *Server) enableToolset(ctx context.Context, req *mcp.CallToolRequest, in enableArgs) *mcp.CallToolResult {
	caller := s.caller(req)
	// Normalise once: the policy check and the toggle must see the same
	// names, or " runtime" would pass the check and enable runtime.
	names, err := toggleNames(in.Toolsets, in.Category, "godot_enable_toolset")
	if err == nil {
		names, err = s.opts.Gate.Normalize(names, "godot_enable_toolset")
	}
	if err != nil {
		return errorResult(asError(err, ""), false)
	}
	if refused := s.refuseToggle(caller, names, "enabling"); refused != nil {
		return refused
	}
	ch, err := s.opts.Gate.Enable(ctx, gate.Request{Toolsets: names, By: by(caller)})
	if err != nil {
		return errorResult(asError(err, ""), false)
	}
	var tools []fallbackTool
	var withheld []string
	for _, n := range ch.Changed {
		d := s.policy.Evaluate(caller, s.reg.refs(n))
		visible := map[string]bool{}
		for _, t := range d.Visible {
			visible[t.Name] = true
		}
		for _, e := range s.reg.toolset(n) {
			if visible[e.ref.Name] {
				tools = append(tools, fallbackTool{Name: e.tool.Name, Title: e.tool.Title, Description: e.tool.Description,
					InputSchema: e.tool.InputSchema, Annotations: e.tool.Annotations})
			} else {
				withheld = append(withheld, e.ref.Name)
			}
		}
	}
	out := map[string]any{
		"enabled":         nonNil(ch.Changed),
		"already_enabled": nonNil(ch.Unchanged),
		"tools":           nonNil(tools),
		"enabled_set":     s.opts.Gate.EnabledSet(),
	}
	if len(withheld) > 0 {
		out["withheld_by_policy"] = withheld
	}
	toolNames := make([]string, len(tools))
	for i, t := range tools {
		toolNames[i] = t.Name
	}
	summary := "Nothing changed: already enabled."
	if len(ch.Changed) > 0 {
		summary = fmt.Sprintf("Enabled %s. New tools: %s.", strings.Join(ch.Changed, ", "), strings.Join(toolNames, ", "))
	}
	return jsonResult(summary, out)
}

// fallbackTool is what the enable result says about a new tool: enough to
// call it without listing again (the pull fallback for clients that ignore
// list_changed), and no more. Output schemas and _meta are left to
// tools/list, which every client that re-lists pays for anyway.
type fallbackTool struct {
	Name        string               `json:"name"`
	Title       string               `json:"title,omitempty"`
	Description string               `json:"description"`
	InputSchema any                  `json:"inputSchema"`
	Annotations *mcp.ToolAnnotations `json:"annotations,omitempty"`
}

func (s *Server) disableToolset(ctx context.Context, req *mcp.CallToolRequest, in disableArgs) *mcp.CallToolResult {
	caller := s.caller(req)
	names, err := toggleNames(in.Toolsets, in.Category, "godot_disable_toolset")
	if err == nil {
		names, err = s.opts.Gate.Normalize(names, "godot_disable_toolset")
	}
	if err != nil {
		return errorResult(asError(err, ""), false)
	}
	if refused := s.refuseToggle(caller, names, "disabling"); refused != nil {
		return refused
	}
	ch, err := s.opts.Gate.Disable(ctx, gate.Request{Toolsets: names, By: by(caller)})
	if err != nil {
		return errorResult(asError(err, ""), false)
	}
	summary := "Nothing changed: already disabled."
	if len(ch.Changed) > 0 {
		summary = "Disabled " + strings.Join(ch.Changed, ", ") + "; their tools are gone and their plugins stopped."
	}
	return jsonResult(summary, map[string]any{
		"disabled":         nonNil(ch.Changed),
		"already_disabled": nonNil(ch.Unchanged),
		"enabled_set":      s.opts.Gate.EnabledSet(),
	})
}

// eventsFor keeps the events a caller may read. A caller bound to a token
// (a principal other than the operator) sees host-wide events and those about
// itself, but not what the policy withheld from, or refused to, other
// principals: that would tell one agent another's surface and name. The
// operator and local callers (no principal) see everything.
func eventsFor(caller exposure.Caller, all []events.Event) []events.Event {
	if caller.Principal == "" || caller.Principal == OperatorPrincipal {
		return all
	}
	out := make([]events.Event, 0, len(all))
	for _, e := range all {
		if p, ok := e.Fields["principal"].(string); ok && p != "" && p != caller.Principal {
			continue
		}
		out = append(out, e)
	}
	return out
}

// refuseToggle applies the policy to a toggle of normalised names (verb is
// "enabling" or "disabling"). The enabled set is shared by every caller, so
// toggling a toolset this caller gets none of the tools of could only change
// what others see: it is refused with TOOL_NOT_EXPOSED naming the layer. It
// returns nil when every named toolset is one the caller may use; core and
// the refusals the gate answers itself are left to the gate.
func (s *Server) refuseToggle(caller exposure.Caller, names []string, verb string) *mcp.CallToolResult {
	for _, n := range names {
		if n == gate.Core {
			continue // the gate answers core
		}
		_, layer := s.policy.Widens(caller, s.reg.refs(n))
		if layer == "" {
			continue
		}
		te := &sdk.Error{
			Code:     sdk.CodeToolNotExposed,
			Toolset:  n,
			Required: "layer:" + layer,
			Message:  fmt.Sprintf("%s toolset %q would give this caller none of its tools: the %s layer withholds them", verb, n, layer),
			Hint:     "the enabled set is shared by every client; toggle a toolset your policy lets you use, or ask the operator to change the policy",
		}
		if s.bus != nil {
			s.bus.Emit(events.Event{Kind: events.ToolsetRefused, Level: events.Warning, Toolset: n, Message: te.Message,
				Fields: map[string]any{"by": by(caller), "principal": caller.Principal, "code": te.Code, "required": te.Required}})
		}
		return errorResult(te, false)
	}
	return nil
}

type pluginView struct {
	Name      string `json:"name"`
	Enabled   bool   `json:"enabled"`
	State     string `json:"state"`
	PID       int    `json:"pid,omitempty"`
	Restarts  int    `json:"restarts"`
	LastError string `json:"last_error,omitempty"`
	StartedAt string `json:"started_at,omitempty"`
}

func (s *Server) serverInfo(ctx context.Context, req *mcp.CallToolRequest, in infoArgs) *mcp.CallToolResult {
	caller := s.caller(req)
	view := s.diagView(caller)
	n := in.Events
	var plugins []pluginView
	for _, ts := range s.opts.Gate.Toolsets() {
		if !view.sees(ts.Name) {
			continue
		}
		st := s.pluginState(ts.Name)
		v := pluginView{Name: ts.Name, Enabled: ts.Enabled, State: string(st.State), Restarts: st.Restarts, LastError: view.scrub(st.LastError)}
		if view.full {
			v.PID = st.PID
		}
		if !st.StartedAt.IsZero() {
			v.StartedAt = st.StartedAt.UTC().Format(time.RFC3339)
		}
		plugins = append(plugins, v)
	}
	var recent []events.Event
	if s.opts.Ring != nil {
		recent = view.events(caller, s.opts.Ring.Recent())
		if len(recent) > n {
			recent = recent[len(recent)-n:]
		}
	}
	sessions := 0
	for range s.mcp.Sessions() {
		sessions++
	}
	godot, source := s.opts.Gate.GodotVersion()
	host := map[string]any{"name": Name, "version": s.opts.Version, "uptime_seconds": int(time.Since(s.started).Seconds())}
	project := "res://"
	if view.full {
		host["pid"] = os.Getpid()
		project = s.opts.ProjectDir
	}
	enabled := make([]string, 0, len(s.opts.Gate.EnabledSet()))
	for _, n := range s.opts.Gate.EnabledSet() {
		if view.sees(n) {
			enabled = append(enabled, n)
		}
	}
	out := map[string]any{
		"host":     host,
		"protocol": map[string]any{"version": req.ProtocolVersion(), "supported": mcp.SupportedProtocolVersions()},
		"caller": map[string]any{"transport": caller.Transport, "loopback": caller.Loopback, "principal": caller.Principal,
			"profile": caller.Profile, "client": caller.ClientName},
		"godot":          map[string]string{"version": godot, "source": source},
		"project_dir":    project,
		"enabled_set":    enabled,
		"toolsets":       nonNil(plugins),
		"sessions":       sessions,
		"listen_streams": s.tools.listeners.Load(),
		"events":         nonNil(recent),
		"editor":         s.editorInfo(view),
		"metrics":        s.metricsInfo(caller),
		"engines":        s.enginesInfo(ctx, view),
	}
	if s.opts.Bus != nil {
		out["events_dropped"] = s.opts.Bus.Dropped()
	}
	summary := fmt.Sprintf("%s %s, protocol %s over %s; Godot %s; enabled: %s", Name, s.opts.Version, req.ProtocolVersion(),
		caller.Transport, orStr(godot, "unknown"), strings.Join(enabled, ", "))
	return jsonResult(summary, out)
}

type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail
	Detail string `json:"detail,omitempty"`
}

func (s *Server) healthCheck(_ context.Context, req *mcp.CallToolRequest, _ noArgs) *mcp.CallToolResult {
	view := s.diagView(s.caller(req))
	var checks []check
	for _, n := range s.opts.Gate.EnabledSet() {
		if n == gate.Core || !view.sees(n) {
			continue
		}
		st := s.pluginState(n)
		c := check{Name: "plugin " + n, Status: "ok", Detail: string(st.State)}
		switch st.State {
		case supervisor.Running, supervisor.Starting:
		case supervisor.Crashed:
			c.Status, c.Detail = "warn", "crashed; it restarts on the next call: "+view.scrub(st.LastError)
		default:
			c.Status = "fail"
			c.Detail = fmt.Sprintf("%s while enabled: %s; disable and re-enable the toolset", st.State, view.scrub(st.LastError))
		}
		checks = append(checks, c)
	}
	if godot, source := s.opts.Gate.GodotVersion(); godot == "" {
		checks = append(checks, check{Name: "godot_version", Status: "warn",
			Detail: "unknown: toolsets with a Godot constraint cannot be enabled; pass --godot-version or --project"})
	} else {
		checks = append(checks, check{Name: "godot_version", Status: "ok", Detail: godot + " from " + source})
	}
	if s.opts.Problems != nil {
		problems := s.opts.Problems()
		switch {
		case view.full:
			for _, p := range problems {
				checks = append(checks, check{Name: "catalog", Status: "warn", Detail: p.Error()})
			}
		case len(problems) > 0:
			// Which binaries were refused, and why, is the operator's to
			// read: the reasons name paths and other toolsets.
			checks = append(checks, check{Name: "catalog", Status: "warn",
				Detail: fmt.Sprintf("%d installed toolset plugins were refused; the operator's godot_health_check or `godot-mcp plugins list` says why", len(problems))})
		}
	}
	checks = append(checks, s.editorChecks(view)...)
	status := "ok"
	for _, c := range checks {
		if c.Status == "fail" {
			status = "unhealthy"
			break
		}
		if c.Status == "warn" {
			status = "degraded"
		}
	}
	var lines []string
	for _, c := range checks {
		if c.Status != "ok" {
			lines = append(lines, fmt.Sprintf("%s: %s: %s", c.Status, c.Name, c.Detail))
		}
	}
	summary := "Health: " + status
	if len(lines) > 0 {
		summary += "\n" + strings.Join(lines, "\n")
	}
	return jsonResult(summary, map[string]any{"status": status, "checks": nonNil(checks)})
}

// toolsByClass answers {class: [exposed tool names]}, the shape prompts
// written for other Godot MCP servers read, plus toolsets_to_enable: the
// toolsets some listed tool belongs to that are not enabled yet.
func (s *Server) toolsByClass(_ context.Context, req *mcp.CallToolRequest, in classArgs) *mcp.CallToolResult {
	caller := s.caller(req)
	entries := s.reg.all()
	refs := make([]exposure.Tool, len(entries))
	for i, e := range entries {
		refs[i] = e.ref
	}
	d := s.policy.Evaluate(caller, refs)
	out := map[string]any{}
	lists := map[string][]string{}
	for _, c := range manifest.Classes {
		if in.Class == "" || in.Class == string(c) {
			lists[string(c)] = []string{}
		}
	}
	var toEnable []string
	for _, t := range d.Visible {
		if list, ok := lists[string(t.Class)]; ok {
			lists[string(t.Class)] = append(list, t.Name)
			if t.Toolset != gate.Core && !s.opts.Gate.Enabled(t.Toolset) && !slices.Contains(toEnable, t.Toolset) {
				toEnable = append(toEnable, t.Toolset)
			}
		}
	}
	var parts []string
	for c, list := range lists {
		slices.Sort(list)
		out[c] = list
		parts = append(parts, fmt.Sprintf("%s: %d", c, len(list)))
	}
	slices.Sort(parts)
	slices.Sort(toEnable)
	out["toolsets_to_enable"] = nonNil(toEnable)
	text := "Tools you may use, by safety class (" + strings.Join(parts, ", ") + "). Destructive tools need confirm=true; mutating and destructive tools accept dry_run=true."
	if len(toEnable) > 0 {
		text += " Tools of " + strings.Join(toEnable, ", ") + " appear once godot_enable_toolset enables them."
	}
	return jsonResult(text, out)
}

// nonNil keeps empty lists as [] in JSON, not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
