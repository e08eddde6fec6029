package main

import (
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// What a dry run answers without applying (sdk.DryRunAnswer): in editor
// mode the command is recorded, not sent, so these are the answer; headless
// the edit is made in memory and its own answer is kept. The flags that
// say it happened (created, saved, script_attached) are false either way.

func composeDryRun(in composeArgs) map[string]any {
	p, err := in.params()
	if err != nil {
		return nil
	}
	children := []string{}
	for _, c := range p.Children {
		children = append(children, c.Name)
	}
	return map[string]any{"node_path": godot.JoinNodePath(nodeedit.NormalizePath(p.ParentPath), p.Name),
		"children": children, "properties_set": sortedKeys(p.Properties)}
}

// batchCreateDryRun: created lists the nodes made, none in a dry run, as
// headless answers it; count is how many the call would make.
func batchCreateDryRun(in batchCreateArgs) map[string]any {
	return map[string]any{"created": []string{}, "count": len(in.Names), "undoable": true}
}

// applyDryRun: edited and skipped are settled as each edit is applied,
// which an editor dry run does not do; count is the properties the edits
// would set.
func applyDryRun(in applyArgs) map[string]any {
	count := 0
	for _, e := range in.Edits {
		count += len(e.Properties)
	}
	return map[string]any{"edited": []string{}, "skipped": []applySkip{}, "count": count, "undoable": true}
}
