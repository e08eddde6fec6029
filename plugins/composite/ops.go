package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// The operations below take the addon's parameter names (ADDON-PROTOCOL
// §5.2, §5.9, §5.10), so the tools and run_commands share them, and run on
// one open scene. Each returns the addon's result shape.

type child struct {
	NodeType   string         `json:"node_type"`
	Name       string         `json:"name,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
	ScriptPath string         `json:"script_path,omitempty"`
}

type composeParams struct {
	ParentPath string         `json:"parent_path,omitempty"`
	NodeType   string         `json:"node_type"`
	Name       string         `json:"name,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
	ScriptPath string         `json:"script_path,omitempty"`
	Children   []child        `json:"children,omitempty"`
	Save       bool           `json:"save,omitempty"`
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// build creates one node with its properties (unknown ones are errors, as
// in the addon's compose_node) and script.
func build(s *nodeedit.Scene, parent string, c child) (*godot.Node, []string, error) {
	n, err := s.CreateNode(parent, c.Name, c.NodeType)
	if err != nil {
		return nil, nil, err
	}
	set := []string{}
	for _, k := range sortedKeys(c.Properties) {
		if _, err := s.SetProperty(n, k, c.Properties[k]); err != nil {
			return nil, nil, err
		}
		set = append(set, k)
	}
	if c.ScriptPath != "" {
		if err := s.AttachScript(n, c.ScriptPath); err != nil {
			return nil, nil, err
		}
	}
	return n, set, nil
}

func composeNode(s *nodeedit.Scene, p composeParams) (map[string]any, error) {
	parent := nodeedit.NormalizePath(p.ParentPath)
	root, set, err := build(s, parent, child{NodeType: p.NodeType, Name: p.Name, Properties: p.Properties, ScriptPath: p.ScriptPath})
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, c := range p.Children {
		n, _, err := build(s, root.Path(), c)
		if err != nil {
			return nil, err
		}
		names = append(names, n.Name())
	}
	return map[string]any{"node_path": root.Path(), "created": true, "children": names,
		"script_attached": p.ScriptPath != "", "properties_set": set, "saved": p.Save}, nil
}

type batchCreateParams struct {
	ParentPath string         `json:"parent_path,omitempty"`
	NodeType   string         `json:"node_type"`
	Names      []string       `json:"names"`
	Properties map[string]any `json:"properties,omitempty"`
	Save       bool           `json:"save,omitempty"`
}

func batchCreate(s *nodeedit.Scene, p batchCreateParams, dryRun bool) (map[string]any, error) {
	if len(p.Names) == 0 {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass at least one name", "names is empty")
	}
	created := []string{}
	for _, name := range p.Names {
		n, _, err := build(s, nodeedit.NormalizePath(p.ParentPath), child{NodeType: p.NodeType, Name: name, Properties: p.Properties})
		if err != nil {
			return nil, err
		}
		created = append(created, n.Path())
	}
	out := map[string]any{"created": created, "count": len(created), "saved": p.Save && !dryRun, "undoable": true}
	if dryRun {
		out["created"] = []string{}
	}
	return out, nil
}

type nodeEdit struct {
	NodePath   string         `json:"node_path"`
	Properties map[string]any `json:"properties"`
}

type applyParams struct {
	Edits []nodeEdit `json:"edits"`
	Save  bool       `json:"save,omitempty"`
}

func applyEdits(s *nodeedit.Scene, p applyParams) (map[string]any, error) {
	if len(p.Edits) == 0 {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass at least one edit", "edits is empty")
	}
	// A bad path is a hard error (checked first, so nothing is half-applied).
	for _, e := range p.Edits {
		if _, err := s.Node(e.NodePath); err != nil {
			return nil, err
		}
	}
	edited := []string{}
	skipped := []map[string]any{}
	count := 0
	for _, e := range p.Edits {
		n, _ := s.Node(e.NodePath)
		touched := false
		for _, k := range sortedKeys(e.Properties) {
			_, err := s.SetProperty(n, k, e.Properties[k])
			if nodeedit.UnknownProperty(err) {
				skipped = append(skipped, map[string]any{"node_path": e.NodePath, "property": k, "reason": "no such property"})
				continue
			}
			if err != nil {
				return nil, err
			}
			touched = true
			count++
		}
		if touched {
			edited = append(edited, n.Path())
		}
	}
	return map[string]any{"edited": edited, "skipped": skipped, "count": count, "saved": p.Save, "undoable": true}, nil
}

// decode fills a params struct from a sub-command's params object.
func decode(params map[string]any, v any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return sdk.Errorf(sdk.CodeInvalidArgument, "check the parameter types against the command's table", "bad params: %v", err)
	}
	return nil
}

func str(params map[string]any, key string) string {
	s, _ := params[key].(string)
	return s
}

func need(params map[string]any, keys ...string) error {
	for _, k := range keys {
		if str(params, k) == "" {
			return &sdk.Error{Code: sdk.CodeInvalidArgument, Message: fmt.Sprintf("missing %q", k), Hint: "pass " + k, Required: k}
		}
	}
	return nil
}

// runOne runs one addon command headless on the scene.
func runOne(ctx context.Context, s *nodeedit.Scene, command string, params map[string]any, dryRun bool) (map[string]any, error) {
	switch command {
	case "cmd_create_node":
		if err := need(params, "node_type"); err != nil {
			return nil, err
		}
		n, err := s.CreateNode(nodeedit.NormalizePath(str(params, "parent_path")), str(params, "name"), str(params, "node_type"))
		if err != nil {
			return nil, err
		}
		return map[string]any{"node_path": n.Path(), "created": true}, nil
	case "cmd_set_node_property":
		if err := need(params, "node_path", "property"); err != nil {
			return nil, err
		}
		n, err := s.Node(str(params, "node_path"))
		if err != nil {
			return nil, err
		}
		v, err := s.SetProperty(n, str(params, "property"), params["value"])
		if err != nil {
			return nil, err
		}
		return map[string]any{"node_path": str(params, "node_path"), "property": str(params, "property"), "value": godot.FormatValue(v), "set": true}, nil
	case "cmd_delete_node":
		if err := need(params, "node_path"); err != nil {
			return nil, err
		}
		if err := s.Delete(str(params, "node_path")); err != nil {
			return nil, err
		}
		return map[string]any{"node_path": str(params, "node_path"), "deleted": true}, nil
	case "cmd_rename_node":
		if err := need(params, "node_path", "new_name"); err != nil {
			return nil, err
		}
		n, old, updated, err := s.Rename(str(params, "node_path"), str(params, "new_name"))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"node_path": n.Path(), "old_name": old, "new_name": str(params, "new_name"), "renamed": true}
		if len(updated) > 0 {
			out["updated_scenes"] = updated
		}
		return out, nil
	case "cmd_attach_script":
		if err := need(params, "node_path", "script_path"); err != nil {
			return nil, err
		}
		n, err := s.Node(str(params, "node_path"))
		if err != nil {
			return nil, err
		}
		if err := s.AttachScript(n, str(params, "script_path")); err != nil {
			return nil, err
		}
		return map[string]any{"node_path": n.Path(), "script_path": str(params, "script_path"), "attached": true}, nil
	case "cmd_connect_signal":
		if err := need(params, "source_path", "signal_name", "target_path", "method_name"); err != nil {
			return nil, err
		}
		already, err := s.Connect(str(params, "source_path"), str(params, "signal_name"), str(params, "target_path"), str(params, "method_name"))
		if err != nil {
			return nil, err
		}
		return map[string]any{"source_path": str(params, "source_path"), "signal_name": str(params, "signal_name"),
			"target_path": str(params, "target_path"), "method_name": str(params, "method_name"), "connected": true, "already_connected": already}, nil
	case "cmd_duplicate_node":
		if err := need(params, "node_path"); err != nil {
			return nil, err
		}
		c, err := s.Duplicate(str(params, "node_path"))
		if err != nil {
			return nil, err
		}
		return map[string]any{"node_path": c.Path(), "source_path": str(params, "node_path")}, nil
	case "cmd_move_node":
		if err := need(params, "node_path", "new_parent_path"); err != nil {
			return nil, err
		}
		index := -1
		if i, ok := params["index"].(float64); ok {
			index = int(i)
		}
		n, err := s.Move(str(params, "node_path"), str(params, "new_parent_path"), index)
		if err != nil {
			return nil, err
		}
		return map[string]any{"node_path": n.Path(), "moved": true}, nil
	case "cmd_add_to_group", "cmd_remove_from_group":
		if err := need(params, "node_path", "group"); err != nil {
			return nil, err
		}
		g := str(params, "group")
		if command == "cmd_add_to_group" {
			_, added, err := s.AddToGroup(str(params, "node_path"), g)
			if err != nil {
				return nil, err
			}
			return map[string]any{"node_path": nodeedit.NormalizePath(str(params, "node_path")), "group": g, "added": added}, nil
		}
		_, removed, err := s.RemoveFromGroup(str(params, "node_path"), g)
		if err != nil {
			return nil, err
		}
		return map[string]any{"node_path": nodeedit.NormalizePath(str(params, "node_path")), "group": g, "removed": removed}, nil
	case "cmd_batch_set_property":
		return batchSet(ctx, s, params)
	case "cmd_compose_node":
		var p composeParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return composeNode(s, p)
	case "cmd_batch_create_nodes":
		var p batchCreateParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return batchCreate(s, p, dryRun)
	case "cmd_apply_node_edits":
		var p applyParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		return applyEdits(s, p)
	}
	return nil, sdk.Errorf(sdk.CodeInvalidArgument, "headless run_commands supports: "+joinKnown()+"; attach the Godot editor for the others",
		"command %q cannot run headless", command)
}

var headless = []string{"cmd_create_node", "cmd_set_node_property", "cmd_delete_node", "cmd_rename_node", "cmd_attach_script",
	"cmd_connect_signal", "cmd_duplicate_node", "cmd_move_node", "cmd_add_to_group", "cmd_remove_from_group",
	"cmd_compose_node", "cmd_batch_create_nodes", "cmd_apply_node_edits", "cmd_batch_set_property"}

func joinKnown() string {
	s := ""
	for i, c := range headless {
		if i > 0 {
			s += ", "
		}
		s += c
	}
	return s
}

// batchSet is the addon's cmd_batch_set_property on the scene: node_paths
// (wins) or every node of type, root included; nodes without the property
// are skipped.
func batchSet(ctx context.Context, s *nodeedit.Scene, params map[string]any) (map[string]any, error) {
	if err := need(params, "property"); err != nil {
		return nil, err
	}
	prop := str(params, "property")
	var targets []*godot.Node
	if raw, ok := params["node_paths"].([]any); ok && len(raw) > 0 {
		for i, p := range raw {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return nil, err
			}
			ps, _ := p.(string)
			n, err := s.Node(ps)
			if err != nil {
				return nil, err
			}
			targets = append(targets, n)
		}
	} else if typ := str(params, "type"); typ != "" {
		db := nodeedit.DB()
		for i, n := range s.Doc.Nodes() {
			if err := sdk.Interrupted(ctx, i); err != nil {
				return nil, err
			}
			if n.Type() == typ || n.Type() != "" && db.Inherits(n.Type(), typ) {
				targets = append(targets, n)
			}
		}
	} else {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: "no target nodes given", Hint: "pass node_paths or type", Required: "node_paths"}
	}
	applied := []string{}
	skipped := []map[string]any{}
	for i, n := range targets {
		if err := sdk.Interrupted(ctx, i); err != nil {
			return nil, err
		}
		_, err := s.SetProperty(n, prop, params["value"])
		if nodeedit.UnknownProperty(err) {
			skipped = append(skipped, map[string]any{"path": n.Path(), "reason": "no such property"})
			continue
		}
		if err != nil {
			return nil, err
		}
		applied = append(applied, n.Path())
	}
	return map[string]any{"property": prop, "applied": applied, "skipped": skipped, "count": len(applied), "undoable": true}, nil
}
