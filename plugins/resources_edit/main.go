// Command resources_edit is the first-party "resources_edit" toolset: the
// project's .tres resource files and its autoloads.
//
// It reads a resource's properties, creates new resources of instantiable
// Resource classes, sets properties (names and types checked against the
// engine's class database, values converted to the property's type, a
// res:// path becoming an ext_resource), and registers or unregisters
// autoloads in project.godot ("*" marks a singleton; the order of the
// others is kept, since Godot loads them in that order).
//
// It also lists, reads and edits the [sub_resource] sections of scenes
// and resources, and makes a shared one unique; resource-typed properties
// take inline resources, embedded as sub-resources.
//
// With a Godot editor attached the resource and autoload tools forward to
// the godot-mcp addon (an inline value, which the addon cannot build, is
// written to the file, and the editor rescans it);
// the sub-resource tools, which the addon has no commands for, and every
// tool headless edit the files through the host's workspace: atomic,
// journaled (godot_undo reverts it) and honouring dry_run. Files are written
// as the editor writes them, and an edit changes only the lines it must.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-resources_edit in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the resources_edit toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "resources_edit",
		Version: "0.1.0",
		Description: "Read, create and edit the project's .tres resources and the sub-resources embedded in scenes and resources, " +
			"checked against the engine's class database, and register or unregister autoloads.",
		Godot: ">= 4.0",
		// The class database is decoded once per process, off the
		// first call's time.
		Warm: classdb.Warm,
		Tools: append([]sdk.Tool{
			sdk.NewTool("read_resource_file",
				"Read a .tres resource: its type, script, UID, the properties it stores (as JSON and as written), and its external and sub resources.",
				sdk.ReadOnly, readResource, sdk.EditorCommand("cmd_read_resource", readResourceCommand),
				sdk.WithTitle("Read resource file")),
			sdk.NewTool("create_resource",
				"Create a .tres resource of an instantiable Resource class (\"StyleBoxFlat\", \"Gradient\", \"LabelSettings\") with properties, "+
					"each checked against the class and converted to its type; a res:// path sets a resource-typed property. Refuses an existing file.",
				sdk.Mutating, createResource, sdk.EditorCommand("cmd_create_resource", createResourceCommand),
				sdk.DryRunAnswer(func(in createArgs) map[string]any {
					return map[string]any{"resource_path": string(in.Path), "type": in.Type}
				}, "created"),
				sdk.WithTitle("Create resource")),
			sdk.NewTool("set_resource_property",
				"Set one property of a .tres resource, checked against its class and converted to the property's type; "+
					"null or the class default removes it from the file, as the editor does.",
				sdk.Mutating, setResourceProperty, sdk.EditorCommand("cmd_set_resource_property", setResourcePropertyCommand),
				sdk.WithTitle("Set resource property")),
			sdk.NewTool("register_autoload",
				"Register a script or scene as an autoload in project.godot: a singleton (global name) by default. Existing autoloads keep their order.",
				sdk.Mutating, registerAutoload, sdk.EditorCommand("cmd_register_autoload", registerAutoloadCommand),
				sdk.DryRunAnswer(func(in registerArgs) map[string]any {
					return map[string]any{"name": in.Name, "path": string(in.Path), "singleton": in.Singleton == nil || *in.Singleton}
				}, "registered"),
				sdk.WithTitle("Register autoload")),
			sdk.NewTool("unregister_autoload",
				"Remove an autoload from project.godot; the others keep their order.",
				sdk.Mutating, unregisterAutoload, sdk.EditorCommand("cmd_unregister_autoload", unregisterAutoloadCommand),
				sdk.WithTitle("Unregister autoload")),
		}, subResourceTools()...),
	}
}
