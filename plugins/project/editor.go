package main

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// In editor mode the two read tools ask the addon, which sees the editor's
// file system (including files it has not saved to disk yet). Our
// arguments map onto the addon's: path → directory, depth → max_depth,
// pattern/name_contains → name_glob, limit → max_results; the answers are
// mapped back onto our result shapes.

// editorDir returns the addon's directory argument: always res://….
func editorDir(arg string) string {
	if arg == "" {
		return "res://"
	}
	if !strings.HasPrefix(arg, "res://") {
		return "res://" + strings.TrimPrefix(arg, "/")
	}
	return arg
}

type editorTreeNode struct {
	Name     string           `json:"name"`
	Path     string           `json:"path"`
	Type     string           `json:"type"`
	Children []editorTreeNode `json:"children"`
}

func forwardTree(ctx context.Context, ed *sdk.Editor, in treeArgs, depth, limit int) (sdk.Result, error) {
	var reply struct {
		Tree editorTreeNode `json:"tree"`
	}
	params := map[string]any{"directory": editorDir(string(in.Path)), "max_depth": depth}
	if err := ed.Query(ctx, "cmd_get_filesystem_tree", params, &reply); err != nil {
		return sdk.Result{}, err
	}
	root := reply.Tree.Path
	if root == "" {
		root = editorDir(string(in.Path))
	}
	out := treeResult{Root: strings.TrimSuffix(root, "/"), Entries: []treeEntry{}, Offset: max(in.Offset, 0)}
	skip := out.Offset
	if out.Root == "res:" {
		out.Root = "res://"
	}
	var walk func(n editorTreeNode, d int) bool
	walk = func(n editorTreeNode, d int) bool {
		// Directories first, then files, as the headless listing.
		for pass := 0; pass < 2; pass++ {
			for _, c := range n.Children {
				isDir := c.Type == "directory"
				if isDir != (pass == 0) {
					continue
				}
				if len(out.Entries) == limit {
					out.pageFull(limit)
					return false
				}
				if skip > 0 { // on an earlier page
					skip--
					if isDir && !walk(c, d+1) {
						return false
					}
					continue
				}
				e := treeEntry{Path: strings.TrimSuffix(c.Path, "/"), Type: "file", Depth: d}
				if isDir {
					e.Type = "dir"
					out.Dirs++
					e.Unlisted = d == depth && len(c.Children) == 0
				} else {
					out.Files++
				}
				out.Entries = append(out.Entries, e)
				if isDir && !walk(c, d+1) {
					return false
				}
			}
		}
		return true
	}
	walk(reply.Tree, 1)
	return sdk.Result{Content: []sdk.Content{sdk.TextContent{Text: out.render()}}, Structured: out}, nil
}
