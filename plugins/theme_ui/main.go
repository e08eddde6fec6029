// Command theme_ui is the first-party "theme_ui" toolset: UI themes and
// the per-node theme overrides of Controls.
//
// It creates Theme resources (saved as a .tres, or inline in the scene)
// and assigns them to Controls, sets theme colors, font sizes and
// styleboxes (StyleBoxFlat, StyleBoxTexture, StyleBoxLine, StyleBoxEmpty,
// inline with their fields) either as a Control's own overrides
// (theme_override_colors/font_color = ...) or on a Theme resource
// (Button/colors/font_color = ...), and reads a Control's overrides. Item
// names are checked against the theme items the engine gives each Control
// class; Godot 3's custom_colors/..., custom_styles/..., custom_fonts/...
// and custom_constants/... names are taken and mapped to their Godot 4
// spelling.
//
// With a Godot editor attached the node tools forward to the godot-mcp
// addon; headless, they edit the files through the host's workspace:
// atomic, journaled (godot_undo reverts it) and honouring dry_run.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the theme_ui toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "theme_ui",
		Version: "0.1.0",
		Description: "UI themes: create a Theme for a Control, set theme colors, font sizes and styleboxes on a Control " +
			"(its theme overrides) or in a Theme resource, and read a Control's overrides.",
		Godot: ">= 4.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("create",
				"Create a new Theme and assign it to the Control at node_path (its theme property): saved as save_path (a new "+
					"res://….tres) and referenced, or without save_path embedded in the scene. Headless, save_path without "+
					"node_path just writes the Theme file. Then fill it with godot_theme_ui_set_color / set_font_size / set_stylebox "+
					"(theme_path, theme_type).",
				sdk.Mutating, createTheme, sdk.EditorFunc(createThemeEditor), sdk.WithTitle("Create theme")),
			sdk.NewTool("set_color",
				"Set a theme color name (e.g. font_color, font_hover_color) to color (\"#ff8800\", [r,g,b,a] or {r,g,b,a}): "+
					"as an override on the Control at node_path, or with theme_path and theme_type (e.g. Button) in a Theme "+
					"resource. The name is checked against the class's theme items; Godot 3 names (custom_colors/…) are mapped.",
				sdk.Mutating, setColor, sdk.EditorFunc(setColorEditor), sdk.WithTitle("Set theme color")),
			sdk.NewTool("set_font_size",
				"Set a theme font size name (e.g. font_size) to size pixels: as an override on the Control at node_path, "+
					"or with theme_path and theme_type in a Theme resource.",
				sdk.Mutating, setFontSize, sdk.EditorFunc(setFontSizeEditor), sdk.WithTitle("Set theme font size")),
			sdk.NewTool("set_stylebox",
				"Set a theme stylebox name (e.g. normal, hover, pressed, panel) to a new stylebox_type (StyleBoxFlat, "+
					"StyleBoxTexture, StyleBoxLine or StyleBoxEmpty) with properties (e.g. bg_color, corner_radius_all, "+
					"border_width_all, border_color, content_margin_left): as an override on the Control at node_path, or with "+
					"theme_path and theme_type in a Theme resource. Inline, as the editor saves it.",
				sdk.Mutating, setStylebox, sdk.EditorFunc(setStyleboxEditor), sdk.WithTitle("Set theme stylebox")),
			sdk.NewTool("get_node_overrides",
				"Read the theme overrides of the Control at node_path: colors, font_sizes, styleboxes (each with its type and "+
					"properties), constants, fonts and icons. Headless, theme_path instead lists a Theme resource's items by type.",
				sdk.ReadOnly, getOverrides, sdk.EditorFunc(getOverridesEditor), sdk.WithTitle("Get node theme overrides")),
		},
	}
}
