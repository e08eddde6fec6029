// Command project is the first-party "project" toolset: read-only views of
// the Godot project's files (a directory tree with sizes, and file search by
// name or content), always as res:// paths and never outside the project.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-project in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the project toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "project",
		Version: "0.1.0",
		Description: "Browse and search the Godot project's files: a directory tree with sizes, " +
			"and file search by name pattern or content, all as res:// paths.",
		Godot: ">= 4.0",
		Tools: []sdk.Tool{
			sdk.NewTool("get_filesystem_tree",
				"List the project's directories and files as a tree with file sizes, starting at a res:// directory. "+
					"Skips .godot/ and hidden entries; depth and limit keep the answer small.",
				sdk.ReadOnly, getFilesystemTree,
				sdk.WithTitle("Project file tree"),
				sdk.WithOutputSchema[treeResult]()),
			sdk.NewTool("search_files",
				"Find project files by glob pattern (\"*.tscn\", \"scenes/**/*.gd\"), by a substring of the file name, "+
					"and/or by text they contain. Returns res:// paths.",
				sdk.ReadOnly, searchFiles,
				sdk.WithTitle("Search project files"),
				sdk.WithOutputSchema[searchResult]()),
		},
	}
}
