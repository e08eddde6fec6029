package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// headlessScene opens the scene a headless call edits.
func headlessScene(ctx context.Context, call *sdk.Call, scene sdk.ScenePath) (*nodeedit.Scene, error) {
	path, err := nodeedit.ScenePath(ctx, call, string(scene))
	if err != nil {
		return nil, err
	}
	return nodeedit.Open(ctx, call, path)
}

// commit writes the scene as the call's one action and returns the files.
func commit(s *nodeedit.Scene, name string) ([]sdk.FileChange, error) {
	res, err := s.Commit(name)
	if err != nil {
		return nil, err
	}
	if res.Files == nil {
		res.Files = []sdk.FileChange{}
	}
	return res.Files, nil
}

// editorApply is the start of every editor path: scene (if given) becomes
// the active tab, which the addon's commands act on, and cmd is applied.
// It reports whether the dry run recorded cmd instead of sending it, in
// which case out is untouched and the answer is the SDK's preview alone.
func editorApply(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params, out any) (recorded bool, err error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return false, err
	}
	if err := ed.Apply(ctx, cmd, params, out); err != nil {
		return false, err
	}
	return ed.DryRun() && editorcmd.Lookup(cmd).Kind == editorcmd.Mutating, nil
}

// onlyPreview is the answer of an editor dry run whose command was
// recorded, not sent: the SDK adds dry_run and the preview of the command.
func onlyPreview() sdk.Result { return sdk.JSON(map[string]any{}) }

// toResult re-decodes an addon-shaped map into a typed result.
func toResult[T any](m map[string]any, out *T) {
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, out)
}

// --- compose_node

type childArgs struct {
	NodeType   string         `json:"node_type" jsonschema:"Node class of the child"`
	NodeName   string         `json:"node_name,omitempty" jsonschema:"the child's name (default: its class)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"property values, as for set_property"`
	ScriptPath string         `json:"script_path,omitempty" jsonschema:"res:// script to attach"`
}

type composeArgs struct {
	Scene      sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// .tscn to edit; empty: the active scene. With an editor attached the scene is opened (made the active tab) and edited there"`
	ParentPath string         `json:"parent_path,omitempty" jsonschema:"parent node path ('.' is the root)" default:"."`
	NodeType   string         `json:"node_type" jsonschema:"Node class, such as CharacterBody2D"`
	NodeName   string         `json:"node_name,omitempty" jsonschema:"the node's name (default: its class)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"property values: JSON numbers/bools/strings, [x, y] or {x, y} for vectors and colours, Godot literals such as \"Vector2(1, 2)\"; for resources res:// paths, an inline resource {\"type\": \"RectangleShape2D\", \"properties\": {\"size\": [16, 32]}} (nested to any depth) made a [sub_resource] of the scene, or {\"sub_resource\": \"<id>\"} for one the scene has"`
	ScriptPath sdk.ResPath    `json:"script_path,omitempty" jsonschema:"res:// script to attach"`
	Children   []childArgs    `json:"children,omitempty" jsonschema:"child nodes to create under it"`
	Save       bool           `json:"save,omitempty" jsonschema:"editor: save the scene afterwards (headless edits are written at once)"`
}

type composeResult struct {
	NodePath       string           `json:"node_path"`
	Created        bool             `json:"created"`
	Children       []string         `json:"children"`
	ScriptAttached bool             `json:"script_attached"`
	PropertiesSet  []string         `json:"properties_set"`
	Saved          bool             `json:"saved"`
	Persisted      *bool            `json:"persisted,omitempty"`
	DryRun         bool             `json:"dry_run,omitempty"`
	Files          []sdk.FileChange `json:"files,omitempty"`
}

// params are the addon's compose params; a child's script_path is checked
// as a top-level one is. A node without a name is named after its class,
// as the schema promises, in both modes: the addon would leave the name
// empty and Godot would make one up.
func (a composeArgs) params() (composeParams, error) {
	p := composeParams{ParentPath: a.ParentPath, NodeType: a.NodeType, Name: cmp.Or(a.NodeName, a.NodeType), Properties: a.Properties,
		ScriptPath: string(a.ScriptPath), Save: a.Save}
	if p.ParentPath == "" {
		p.ParentPath = "."
	}
	for i, c := range a.Children {
		script := c.ScriptPath
		if script != "" {
			var err error
			if script, err = sdk.CleanResPath(fmt.Sprintf("children[%d].script_path", i), script); err != nil {
				return p, err
			}
		}
		p.Children = append(p.Children, child{NodeType: c.NodeType, Name: cmp.Or(c.NodeName, c.NodeType), Properties: c.Properties, ScriptPath: script})
	}
	return p, nil
}

func composeTool(ctx context.Context, call *sdk.Call, in composeArgs) (sdk.Result, error) {
	p, err := in.params()
	if err != nil {
		return sdk.Result{}, err
	}
	var out composeResult
	s, err := headlessScene(ctx, call, in.Scene)
	if err != nil {
		return sdk.Result{}, err
	}
	m, err := composeNode(s, p)
	if err != nil {
		return sdk.Result{}, err
	}
	toResult(m, &out)
	out.Saved = !call.DryRun
	if out.Files, err = commit(s, "Compose "+out.NodePath); err != nil {
		return sdk.Result{}, err
	}
	return composeAnswer(call.DryRun, out), nil
}

// hasInlineProperty reports whether arguments hold an inline resource,
// which the addon's commands would pass to the node unconverted: in editor
// mode compose_node, batch_create_nodes and apply_node_edits then make the
// edit on the scene's file instead (sdk.Editor.OnSceneFile), and
// run_commands, whose inner commands are the addon's, refuses. Only
// property values are looked at — the entries of a "properties" object and
// a "value" — since other arguments ({"type": "Label"} for
// find_nodes_by_type) can have an inline resource's shape.
func hasInlineProperty(args any) bool {
	raw, err := json.Marshal(args)
	if err != nil {
		return false
	}
	var v any
	return json.Unmarshal(raw, &v) == nil && inlineProperty(v)
}

// inlineProperty reports whether a property value somewhere in v holds an
// inline resource or a sub-resource reference.
func inlineProperty(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "value":
				if nodeedit.HasInline(e) {
					return true
				}
			case "properties":
				if props, ok := e.(map[string]any); ok {
					for _, pv := range props {
						if nodeedit.HasInline(pv) {
							return true
						}
					}
				}
			}
			if inlineProperty(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if inlineProperty(e) {
				return true
			}
		}
	}
	return false
}

// composeEditor: cmd_compose_node has no preview flag, so a dry run records
// it and creates nothing in the user's scene.
func composeEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in composeArgs) (sdk.Result, error) {
	if hasInlineProperty(in) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, composeTool)
	}
	p, err := in.params()
	if err != nil {
		return sdk.Result{}, err
	}
	// Resource paths are set after the build (editorpaths.go).
	var later map[string]any
	p.Properties, later = resourcePaths(p.NodeType, p.Properties)
	kidsLater := make([]map[string]any, len(p.Children))
	for i := range p.Children {
		p.Children[i].Properties, kidsLater[i] = resourcePaths(p.Children[i].NodeType, p.Children[i].Properties)
	}
	var out composeResult
	recorded, err := editorApply(ctx, ed, in.Scene, "cmd_compose_node", p, &out)
	if err != nil {
		return sdk.Result{}, err
	}
	base := out.NodePath
	if recorded { // the node does not exist: the path it would get
		base = godot.JoinNodePath(nodeedit.NormalizePath(p.ParentPath), p.Name)
	}
	held := []heldBack{}
	if later != nil {
		held = append(held, heldBack{base, later})
	}
	for i, c := range p.Children {
		if kidsLater[i] != nil {
			held = append(held, heldBack{godot.JoinNodePath(base, c.Name), kidsLater[i]})
		}
	}
	if err := setHeldBack(ctx, ed, held); err != nil {
		return sdk.Result{}, err
	}
	if recorded {
		return onlyPreview(), nil
	}
	if later != nil { // the node's own held-back paths
		out.PropertiesSet = append(out.PropertiesSet, sortedKeys(later)...)
	}
	return composeAnswer(false, out), nil
}

func composeAnswer(dryRun bool, out composeResult) sdk.Result {
	out.DryRun = dryRun
	if out.Children == nil {
		out.Children = []string{}
	}
	if out.PropertiesSet == nil {
		out.PropertiesSet = []string{}
	}
	text := fmt.Sprintf("created %s with %d children", out.NodePath, len(out.Children))
	if dryRun {
		text = "dry run: would create " + out.NodePath
	}
	return sdk.Summarized(text, out)
}

// --- batch_create_nodes

type batchCreateArgs struct {
	Scene      sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// .tscn to edit; empty: the active scene. With an editor attached the scene is opened (made the active tab) and edited there"`
	ParentPath string         `json:"parent_path,omitempty" jsonschema:"parent node path" default:"."`
	NodeType   string         `json:"node_type" jsonschema:"Node class of every new node"`
	Names      []string       `json:"names" jsonschema:"the new nodes' names"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"property values applied to each node"`
	Save       bool           `json:"save,omitempty" jsonschema:"editor: save the scene afterwards"`
}

type batchCreateResult struct {
	Created  []string         `json:"created"`
	Count    int              `json:"count"`
	Saved    bool             `json:"saved"`
	Undoable bool             `json:"undoable"`
	Hint     string           `json:"hint,omitempty"`
	DryRun   bool             `json:"dry_run,omitempty"`
	Files    []sdk.FileChange `json:"files,omitempty"`
}

func (in batchCreateArgs) params() batchCreateParams {
	p := batchCreateParams{ParentPath: in.ParentPath, NodeType: in.NodeType, Names: in.Names, Properties: in.Properties, Save: in.Save}
	if p.ParentPath == "" {
		p.ParentPath = "."
	}
	return p
}

func batchCreateTool(ctx context.Context, call *sdk.Call, in batchCreateArgs) (sdk.Result, error) {
	p := in.params()
	var out batchCreateResult
	s, err := headlessScene(ctx, call, in.Scene)
	if err != nil {
		return sdk.Result{}, err
	}
	m, err := batchCreate(s, p, false)
	if err != nil {
		return sdk.Result{}, err
	}
	toResult(m, &out)
	if out.Files, err = commit(s, fmt.Sprintf("Create %d %s nodes", len(in.Names), in.NodeType)); err != nil {
		return sdk.Result{}, err
	}
	out.Saved = !call.DryRun
	if call.DryRun {
		out.Created = []string{}
	}
	return batchCreateAnswer(call.DryRun, out), nil
}

// batchCreateEditor: the addon previews cmd_batch_create_nodes itself, so
// a dry run sends it with dry_run set (Editor.Apply does).
func batchCreateEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in batchCreateArgs) (sdk.Result, error) {
	if hasInlineProperty(map[string]any{"properties": in.Properties}) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, batchCreateTool)
	}
	p := in.params()
	// Resource paths are set after the build (editorpaths.go).
	props, later := resourcePaths(p.NodeType, p.Properties)
	params := map[string]any{"parent_path": p.ParentPath, "node_type": p.NodeType, "names": p.Names,
		"properties": props, "save": p.Save}
	var out batchCreateResult
	if _, err := editorApply(ctx, ed, in.Scene, "cmd_batch_create_nodes", params, &out); err != nil {
		return sdk.Result{}, err
	}
	if later != nil {
		created := out.Created
		if ed.DryRun() {
			created = nil
			for _, n := range p.Names {
				created = append(created, godot.JoinNodePath(nodeedit.NormalizePath(p.ParentPath), n))
			}
		}
		held := make([]heldBack, len(created))
		for i, n := range created {
			held[i] = heldBack{n, later}
		}
		if err := setHeldBack(ctx, ed, held); err != nil {
			return sdk.Result{}, err
		}
	}
	return batchCreateAnswer(ed.DryRun(), out), nil
}

func batchCreateAnswer(dryRun bool, out batchCreateResult) sdk.Result {
	out.DryRun = dryRun
	if out.Created == nil {
		out.Created = []string{}
	}
	return sdk.Summarized(fmt.Sprintf("%d nodes: %s", out.Count, strings.Join(out.Created, ", ")), out)
}

// --- apply_node_edits

type editArgs struct {
	NodePath   string         `json:"node_path" jsonschema:"node path ('.' is the root)"`
	Properties map[string]any `json:"properties" jsonschema:"property values to set"`
}

type applyArgs struct {
	Scene sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// .tscn to edit; empty: the active scene. With an editor attached the scene is opened (made the active tab) and edited there"`
	Edits []editArgs    `json:"edits" jsonschema:"the edits, applied in order"`
	Save  bool          `json:"save,omitempty" jsonschema:"editor: save the scene afterwards"`
}

type applySkip struct {
	NodePath string `json:"node_path"`
	Property string `json:"property"`
	Reason   string `json:"reason"`
}

type applyResult struct {
	Edited      []string         `json:"edited"`
	Skipped     []applySkip      `json:"skipped"`
	Count       int              `json:"count" jsonschema:"properties set"`
	Saved       bool             `json:"saved"`
	Undoable    bool             `json:"undoable"`
	Hint        string           `json:"hint,omitempty"`
	Persistence []map[string]any `json:"persistence,omitempty"`
	DryRun      bool             `json:"dry_run,omitempty"`
	Files       []sdk.FileChange `json:"files,omitempty"`
}

func (in applyArgs) params() applyParams {
	p := applyParams{Save: in.Save}
	for _, e := range in.Edits {
		p.Edits = append(p.Edits, nodeEdit(e))
	}
	return p
}

func applyTool(ctx context.Context, call *sdk.Call, in applyArgs) (sdk.Result, error) {
	p := in.params()
	var out applyResult
	s, err := headlessScene(ctx, call, in.Scene)
	if err != nil {
		return sdk.Result{}, err
	}
	m, err := applyEdits(s, p)
	if err != nil {
		return sdk.Result{}, err
	}
	toResult(m, &out)
	if out.Files, err = commit(s, fmt.Sprintf("Edit %d nodes", len(in.Edits))); err != nil {
		return sdk.Result{}, err
	}
	out.Saved = !call.DryRun
	return applyAnswer(call.DryRun, out), nil
}

// applyEditor: the addon previews cmd_apply_node_edits itself, so a dry
// run sends it with dry_run set (Editor.Apply does).
func applyEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in applyArgs) (sdk.Result, error) {
	if hasInlineProperty(in) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, applyTool)
	}
	p := in.params()
	// Resource paths are set after the edits (editorpaths.go); the node's
	// class is not known here, so every res:// or uid:// string goes that
	// way (cmd_set_node_property sets a String property to it as well).
	var held []heldBack
	edits := p.Edits[:0:0]
	for _, e := range p.Edits {
		keep, later := pathValues(e.Properties)
		if later != nil {
			held = append(held, heldBack{node: e.NodePath, props: later})
		}
		if len(keep) > 0 || later == nil {
			edits = append(edits, nodeEdit{NodePath: e.NodePath, Properties: keep})
		}
	}
	var out applyResult
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	if len(edits) > 0 {
		if _, err := editorApply(ctx, ed, "", "cmd_apply_node_edits", map[string]any{"edits": edits, "save": p.Save && held == nil}, &out); err != nil {
			return sdk.Result{}, err
		}
	}
	if err := setHeldBack(ctx, ed, held); err != nil {
		return sdk.Result{}, err
	}
	for _, h := range held {
		if !slices.Contains(out.Edited, h.node) {
			out.Edited = append(out.Edited, h.node)
		}
		out.Count += len(h.props)
	}
	if p.Save && held != nil {
		if err := ed.Apply(ctx, "cmd_save_scene", nil, nil); err != nil {
			return sdk.Result{}, err
		}
		out.Saved = !ed.DryRun()
	}
	return applyAnswer(ed.DryRun(), out), nil
}

func applyAnswer(dryRun bool, out applyResult) sdk.Result {
	out.DryRun = dryRun
	if out.Edited == nil {
		out.Edited = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = []applySkip{}
	}
	return sdk.Summarized(fmt.Sprintf("%d properties set on %d nodes, %d skipped", out.Count, len(out.Edited), len(out.Skipped)), out)
}

// --- run_commands

type commandArgs struct {
	Command string         `json:"command" jsonschema:"command name: cmd_create_node, create_node or a tool name such as godot_scene_edit_create_node"`
	Params  map[string]any `json:"params,omitempty" jsonschema:"the command's parameters (addon keys; node_name is accepted for name)"`
}

type runArgs struct {
	Scene       sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// .tscn the commands edit; empty: the active scene. With an editor attached the scene is opened (made the active tab) first"`
	Commands    []commandArgs `json:"commands" jsonschema:"the commands, run in order"`
	StopOnError *bool         `json:"stop_on_error,omitempty" jsonschema:"stop at the first failure (headless: then nothing is written)" default:"true"`
}

type subResult struct {
	Command  string         `json:"command"`
	OK       bool           `json:"ok"`
	Result   map[string]any `json:"result,omitempty"`
	Error    string         `json:"error,omitempty"`
	Hint     string         `json:"hint,omitempty"`
	Required string         `json:"required,omitempty"`
}

type runResult struct {
	Results      []subResult      `json:"results"`
	OKAll        bool             `json:"ok_all"`
	Count        int              `json:"count"`
	AbortedAt    *int             `json:"aborted_at,omitempty" jsonschema:"index of the command that failed and stopped the run"`
	SkippedCount int              `json:"skipped_count,omitempty" jsonschema:"commands not run after aborted_at"`
	Hint         string           `json:"hint,omitempty"`
	DryRun       bool             `json:"dry_run,omitempty"`
	Files        []sdk.FileChange `json:"files,omitempty"`
}

// resolveCommand turns an operation's name into the addon command that
// does its work: the command itself (cmd_create_node), a tool's exposed
// name (the host hands run_commands every operation under the exposed name
// of the tool it checked), or, called without a host, a bare action with
// or without its toolset (create_node, scene_edit_create_node). The addon
// registers its own names (cmd_read_script for godot_scripts_read), so the
// map is editorcmd's, never "cmd_" + the tool's name. A tool with no
// single addon command (a headless run, a check, an export) is refused
// with the advice to call it directly.
func resolveCommand(name string) (string, *sdk.Error) {
	n := strings.TrimSpace(name)
	if strings.HasPrefix(n, "cmd_") {
		return n, nil
	}
	bare := strings.TrimPrefix(n, "godot_")
	if c, ok := editorcmd.ToolCommand("godot_" + bare); ok {
		return c, nil
	}
	if bare == "set_property" { // the reference's short name for batch_set_property
		return "cmd_batch_set_property", nil
	}
	var hits []string
	for _, tool := range editorcmd.Tools() {
		if strings.HasSuffix(tool, "_"+bare) {
			hits = append(hits, tool)
		}
	}
	switch len(hits) {
	case 1:
		c, _ := editorcmd.ToolCommand(hits[0])
		return c, nil
	case 0:
		if editorcmd.Known("cmd_" + bare) { // an addon query no tool exposes: node_exists
			return "cmd_" + bare, nil
		}
		return "", &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("%q has no single editor command", name),
			Hint:    "call " + n + " directly: only tools that do one editor command's work can be listed (create_node, set_node_property, ...), by their tool name or the addon's cmd_* name"}
	default:
		return "", &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("%q could be any of %s", name, strings.Join(hits, ", ")),
			Hint:    "name the tool in full, such as " + hits[0]}
	}
}

// mapParams renames node_name to name for create/compose, as the reference
// server's map_params does.
func mapParams(cmd string, params map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range params {
		out[k] = v
	}
	if cmd == "cmd_create_node" || cmd == "cmd_compose_node" {
		if v, ok := out["node_name"]; ok {
			if _, has := out["name"]; !has {
				out["name"] = v
			}
			delete(out, "node_name")
		}
		if kids, ok := out["children"].([]any); ok {
			for _, k := range kids {
				if m, ok := k.(map[string]any); ok {
					if v, ok := m["node_name"]; ok {
						m["name"] = v
						delete(m, "node_name")
					}
				}
			}
		}
	}
	return out
}

func subError(cmd string, err error) subResult {
	var e *sdk.Error
	if !errors.As(err, &e) {
		e = &sdk.Error{Code: sdk.CodeInternalError, Message: err.Error()}
	}
	hint := e.Message
	if e.Hint != "" {
		hint += "; " + e.Hint
	}
	return subResult{Command: cmd, OK: false, Error: e.Code, Hint: hint, Required: e.Required}
}

// commandList resolves the commands of a run_commands call to the addon's
// names and params.
func (in runArgs) commandList() ([]map[string]any, bool, error) {
	stop := in.StopOnError == nil || *in.StopOnError
	if len(in.Commands) == 0 {
		return nil, stop, sdk.Errorf(sdk.CodeInvalidArgument, "pass at least one {command, params}", "commands is empty")
	}
	cmds := make([]map[string]any, len(in.Commands))
	for i, c := range in.Commands {
		name, err := resolveCommand(c.Command)
		if err != nil {
			err.Message = fmt.Sprintf("command %d: %s", i, err.Message)
			return nil, stop, err
		}
		if name == "cmd_run_commands" {
			return nil, stop, sdk.Errorf(sdk.CodeInvalidArgument, "flatten the list: run_commands cannot nest", "command %d is run_commands", i)
		}
		cmds[i] = map[string]any{"command": name, "params": mapParams(name, c.Params)}
	}
	return cmds, stop, nil
}

// runCommandsEditor sends the list as one cmd_run_commands. Its inner
// commands are addon commands the SDK cannot see into, so in a dry run
// cmd_run_commands is recorded, not sent; a list of reads only (queries,
// package editorcmd) runs in a dry run too, one query at a time, since the
// host lets no cmd_run_commands through during a dry run.
func runCommandsEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in runArgs) (sdk.Result, error) {
	if hasInlineProperty(in) {
		return sdk.Result{}, nodeedit.EditorInline("a property value")
	}
	cmds, stop, err := in.commandList()
	if err != nil {
		return sdk.Result{}, err
	}
	if ed.DryRun() && allQueries(cmds) {
		if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
			return sdk.Result{}, err
		}
		return runAnswer(true, runQueries(ctx, ed, cmds, stop)), nil
	}
	var out runResult
	recorded, err := editorApply(ctx, ed, in.Scene, "cmd_run_commands", map[string]any{"commands": cmds, "stop_on_error": stop}, &out)
	if err != nil || recorded {
		return onlyPreview(), err
	}
	// Each failed sub-command is the addon's own envelope, inside an ok
	// result the host does not map: map it with the host's rule, so a
	// sub-result has the code a headless run gives it.
	for i, r := range out.Results {
		if !r.OK {
			out.Results[i] = subError(r.Command, addonerr.Refusal(r.Command, r.Error, r.Hint, r.Required))
		}
	}
	return runAnswer(false, out), nil
}

// allQueries reports whether every command only reads.
func allQueries(cmds []map[string]any) bool {
	for _, c := range cmds {
		if k := editorcmd.Lookup(c["command"].(string)).Kind; k != editorcmd.Query {
			return false
		}
	}
	return true
}

// runQueries runs a list of reads as cmd_run_commands would: in order, a
// failure reported in place, and with stop the first one ends the run.
func runQueries(ctx context.Context, ed *sdk.Editor, cmds []map[string]any, stop bool) runResult {
	out := runResult{OKAll: true}
	for i, c := range cmds {
		name := c["command"].(string)
		var m map[string]any
		if err := ed.Query(ctx, name, c["params"], &m); err != nil {
			if out.failed(i, len(cmds), name, err, stop, "") {
				break
			}
			continue
		}
		out.Results = append(out.Results, subResult{Command: name, OK: true, Result: m})
	}
	return out
}

func runCommandsTool(ctx context.Context, call *sdk.Call, in runArgs) (sdk.Result, error) {
	cmds, stop, err := in.commandList()
	if err != nil {
		return sdk.Result{}, err
	}
	var out runResult
	s, err := headlessScene(ctx, call, in.Scene)
	if err != nil {
		return sdk.Result{}, err
	}
	out.OKAll = true
	for i, c := range cmds {
		name := c["command"].(string)
		before := s.Bytes()
		edited := s.Edited
		// A cancelled call stops between commands, and inside a long
		// one; nothing is written.
		if err := sdk.Stopped(ctx); err != nil {
			return sdk.Result{}, err
		}
		m, err := runOne(ctx, s, name, c["params"].(map[string]any), call.DryRun)
		if err != nil {
			// Undo this command's partial edits: each command is all or nothing.
			doc, perr := godot.ParseFile(s.Path, before)
			if perr != nil {
				return sdk.Result{}, sdk.Errorf(sdk.CodeInternalError, "report this bug", "cannot restore the scene: %v", perr)
			}
			doc.SetFloatStyle(s.Doc.FloatStyle())
			s.Doc, s.Edited = doc, edited
			if out.failed(i, len(cmds), name, err, stop, "; nothing was written (stop_on_error)") {
				break
			}
			continue
		}
		out.Results = append(out.Results, subResult{Command: name, OK: true, Result: m})
	}
	if out.AbortedAt == nil {
		if out.Files, err = commit(s, fmt.Sprintf("Run %d commands", len(cmds))); err != nil {
			return sdk.Result{}, err
		}
	} else {
		out.Files = []sdk.FileChange{}
	}
	return runAnswer(call.DryRun, out), nil
}

// failed records command i of n (name) failing with err; with stop it
// also records where the run was cut, and reports that the run ends there.
// note says what the cut means for the files ("" for nothing).
func (out *runResult) failed(i, n int, name string, err error, stop bool, note string) (abort bool) {
	out.Results = append(out.Results, subError(name, err))
	out.OKAll = false
	if !stop {
		return false
	}
	at := i
	out.AbortedAt, out.SkippedCount = &at, n-i-1
	out.Hint = fmt.Sprintf("command %d (%s) failed%s: fix it and run the list again", i, name, note)
	return true
}

func runAnswer(dryRun bool, out runResult) sdk.Result {
	out.Count = len(out.Results)
	out.DryRun = dryRun
	if out.Results == nil {
		out.Results = []subResult{}
	}
	text := fmt.Sprintf("%d commands run, ok_all=%v", out.Count, out.OKAll)
	if out.AbortedAt != nil {
		text += fmt.Sprintf(", aborted at %d, %d skipped", *out.AbortedAt, out.SkippedCount)
	}
	for i, r := range out.Results {
		if !r.OK {
			text += fmt.Sprintf("\n  %d %s: %s %s", i, r.Command, r.Error, r.Hint)
		}
	}
	return sdk.Summarized(text, out)
}
