// Command asset_import is the first-party "asset_import" toolset: it
// brings files from outside the project in (images, audio, fonts, glTF
// scenes) with the .import file Godot's editor would write for them,
// reports which assets are missing an import or have a stale one, builds
// StandardMaterial3D resources from textures, and makes placeholder art
// (PNG images and texture resources) for an agent with no image editor.
//
// Every write goes through the host's workspace: atomic, journaled
// (godot_undo removes it again) and previewed by dry_run. With an editor
// attached the workspace's commit makes the editor rescan its file
// system, which imports the new files; create_material_from_textures is
// the addon's own command there.
//
// Which folders outside the project may be copied from is the operator's
// choice, made in godot-mcp's environment (GODOT_MCP_ASSET_IMPORT_FROM);
// see docs/toolsets/asset_import.md.
//
// It is built exactly like a third-party toolset: it imports only the sdk.
// Install it as godot-mcp-toolset-asset_import in the plugins directory.
package main

import "github.com/godot-mcp/godot-mcp/sdk"

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the asset_import toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "asset_import",
		Version: "0.1.0",
		Description: "Bring images, audio, fonts and glTF scenes into the project with the .import file the editor would write, " +
			"check which imports are missing or stale, build a StandardMaterial3D from textures, and make placeholder art " +
			"(PNG shapes and gradients, GradientTexture2D and PlaceholderTexture2D resources).",
		Tools: []sdk.Tool{
			sdk.NewTool("asset",
				"Copy a file from outside the project (source: an absolute path in a folder the operator allows with "+
					AllowEnv+"; or a res:// path to copy a project file) to target_path, and write its .import file with the importer and default options the Godot editor "+
					"chooses for its type ("+importableList()+"), so the editor imports it unchanged when it opens the project "+
					"(with an editor attached, at once). options.import_settings overrides options by their .import key; "+
					"options.overwrite replaces an existing file; options.write_imported (textures, no editor attached) also writes the imported texture under res://.godot/imported/ so the game shows it before any editor opened the project. Undo with godot_undo.",
				sdk.Mutating, importAsset,
				sdk.WithTitle("Import an asset from outside the project"),
				// Not the addon's cmd_import_asset: it reads source in the
				// editor's process, where the operator's policy cannot be
				// applied to the bytes read, and its copy has no undo.
				sdk.AnyMode()),
			sdk.NewTool("get_status",
				"Report the import state of the project's assets (images, audio, fonts, glTF scenes): missing (no .import file), "+
					"pending (never imported in this checkout; the editor imports it on open), stale (changed since the editor "+
					"imported it, by the MD5 it recorded, or a .import copied from another path), orphaned (a .import without its "+
					"asset), failed (the editor's last import failed) or imported. Without target_path it lists every asset that is not imported (include_ok lists all), "+
					"paged with offset/limit; with target_path it answers for that file (imported, type). Import options that "+
					"differ from the defaults are the user's choice, not staleness.",
				sdk.ReadOnly, importStatus,
				sdk.WithTitle("Import status of the project's assets"),
				// Not the addon's cmd_get_import_status: it looks for
				// .godot/imported/<path>, which Godot never writes.
				sdk.AnyMode()),
			sdk.NewTool("create_material_from_textures",
				"Create a StandardMaterial3D .tres from textures in the project: albedo, normal, roughness, metallic, ao, "+
					"emission (res:// paths of images or texture resources; at least one). Each texture is set as the editor's "+
					"inspector sets it, with the flag that makes it work (normal_enabled, emission_enabled, ao_enabled; metallic "+
					"1.0 with a metallic texture). path defaults to res://materials/<albedo name>.tres. Undo with godot_undo.",
				sdk.Mutating, createMaterial,
				sdk.WithTitle("Create a material from textures"),
				sdk.EditorFunc(createMaterialInEditor)),
			sdk.NewTool("create_placeholder_image",
				"Draw a placeholder PNG without an image editor: a rectangle (the whole image), circle or triangle in a solid "+
					"colour or a gradient (color to color_to: horizontal, vertical, diagonal, radial) on a background "+
					"(transparent by default), with its .import file so the editor imports it as a texture. Undo with godot_undo.",
				sdk.Mutating, createImage,
				sdk.WithTitle("Draw a placeholder PNG"),
				sdk.AnyMode()),
			sdk.NewTool("create_placeholder_texture",
				"Write a texture resource (.tres) that needs no image file: a GradientTexture2D (colors at offsets; linear, "+
					"radial or square fill; one colour gives a solid texture) or a PlaceholderTexture2D (only a size, draws "+
					"nothing: a stand-in for art to come). Use it wherever a Texture2D goes. Undo with godot_undo.",
				sdk.Mutating, createTexture,
				sdk.WithTitle("Write a gradient or placeholder texture resource"),
				sdk.AnyMode()),
		},
	}
}
