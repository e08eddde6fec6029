package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/renames"
)

// classDB returns the embedded class database (decoded once, by classdb).
func classDB() (*classdb.DB, error) {
	d, err := classdb.Embedded()
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInternalError, "report this bug: the class database is built into the plugin", "loading the class database: %v", err)
	}
	return d, nil
}

// engineSections are the first segments of the engine's own setting names
// ("application", "display", …): a key under one of them that the engine
// does not know is a typo, while other sections belong to the project and
// take any key. Only called with a class database in hand (from classDB),
// so MustEmbedded cannot fail here.
var engineSections = sync.OnceValue(func() map[string]bool {
	sections := map[string]bool{}
	for _, n := range classdb.MustEmbedded().Settings() {
		if i := strings.IndexByte(n, '/'); i > 0 {
			sections[n[:i]] = true
		}
	}
	// Input actions and autoloads are the project's own keys, each with a
	// toolset of its own.
	delete(sections, "input")
	delete(sections, "autoload")
	return sections
})

// knownSetting looks a setting up in the class database, also for a
// feature override ("rendering/renderer/rendering_method.mobile" is the
// mobile value of "rendering/renderer/rendering_method").
func knownSetting(d *classdb.DB, name string) (classdb.Setting, bool) {
	if s, ok := d.Setting(name); ok {
		return s, true
	}
	last := strings.LastIndexByte(name, '/')
	if dot := strings.LastIndexByte(name, '.'); dot > last && last >= 0 {
		return d.Setting(name[:dot])
	}
	return classdb.Setting{}, false
}

// checkSettingName refuses an unknown key under an engine section, naming
// the closest real one.
func checkSettingName(d *classdb.DB, name, project string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.ContainsAny(name, "\n\r\"=[]") {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a setting name such as \"application/config/name\"", "setting name %q is malformed", name)
	}
	if !strings.Contains(name, "/") {
		return sdk.Errorf(sdk.CodeInvalidArgument, "settings live in sections: pass \"section/key\", e.g. \"my_game/difficulty\"",
			"setting name %q has no section", name)
	}
	if _, ok := knownSetting(d, name); ok {
		return nil
	}
	section, _, _ := strings.Cut(name, "/")
	if !engineSections()[section] {
		return nil
	}
	hint := fmt.Sprintf("settings under [%s] belong to the engine; check the name in the project settings, or use a section of your own for custom settings", section)
	if r, ok := renames.Setting(name); ok {
		if _, known := knownSetting(d, r.New); known {
			hint = r.Message()
		}
	} else if s := d.SuggestSetting(name); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Message: fmt.Sprintf("unknown project setting %q: Godot %s has no such key under [%s]", name, d.VersionFor(project), section), Hint: hint}
}

type getSettingArgs struct {
	Name string `json:"name" jsonschema:"setting name, e.g. \"display/window/size/viewport_width\" or \"application/config/name\""`
}

type settingResult struct {
	Name    string `json:"name"`
	Value   any    `json:"value" jsonschema:"the value in project.godot, or the engine default when the file does not set it"`
	Text    string `json:"text,omitempty" jsonschema:"the value as written in project.godot"`
	Exists  bool   `json:"exists" jsonschema:"the file sets it or the engine knows it"`
	InFile  bool   `json:"in_file" jsonschema:"project.godot sets it (otherwise the engine default applies)"`
	Type    string `json:"type,omitempty" jsonschema:"the engine's type for it, when the engine knows it"`
	Default string `json:"default,omitempty" jsonschema:"the engine default, in project.godot syntax"`
}

// getSettingCommand is get_setting's editor path: the editor's
// ProjectSettings, saved or not.
func getSettingCommand(in getSettingArgs) (any, error) {
	if in.Name == "" {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass name, e.g. \"application/config/name\"", "name is empty")
	}
	return map[string]any{"name": in.Name}, nil
}

func getSetting(ctx context.Context, call *sdk.Call, in getSettingArgs) (sdk.Result, error) {
	if _, err := getSettingCommand(in); err != nil {
		return sdk.Result{}, err
	}
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	proj, _, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := settingResult{Name: in.Name}
	if s, ok := knownSetting(d, in.Name); ok {
		out.Exists, out.Type, out.Default = true, s.Type, s.Default
		if v, err := godot.ParseValue([]byte(s.Default)); err == nil {
			out.Value = godot.ToJSON(v)
		}
	}
	if v, ok := proj.Setting(in.Name); ok {
		out.Exists, out.InFile, out.Value, out.Text = true, true, godot.ToJSON(v), godot.FormatValue(v)
	}
	return sdk.JSON(out), nil
}

type setSettingArgs struct {
	Name  string `json:"name" jsonschema:"setting name, e.g. \"display/window/size/viewport_width\"; keys under engine sections must be real engine settings, other sections are the project's own"`
	Value any    `json:"value" jsonschema:"new value, converted to the setting's type: numbers, booleans, strings, {\"x\":…,\"y\":…} vectors, \"#rrggbb\" colours, lists, or a Godot text form such as \"Vector2i(640, 480)\"" godot:"value"`
}

type setSettingResult struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Text  string `json:"text" jsonschema:"the value as written in project.godot"`
	Set   bool   `json:"set"`
	// Reverted: the value equals the engine default, so the key was
	// removed from project.godot, as the editor does.
	Reverted bool             `json:"reverted_to_default,omitempty"`
	Commit   sdk.CommitResult `json:"commit"`
}

// setSettingCommand is set_setting's editor path, after the same name
// check as headless; the editor converts the value.
func setSettingCommand(in setSettingArgs) (any, error) {
	d, err := classDB()
	if err != nil {
		return nil, err
	}
	if err := checkSettingName(d, in.Name, ""); err != nil { // the editor names its own version
		return nil, err
	}
	return map[string]any{"name": in.Name, "value": in.Value}, nil
}

func setSetting(ctx context.Context, call *sdk.Call, in setSettingArgs) (sdk.Result, error) {
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	if err := checkSettingName(d, in.Name, call.Workspace().GodotVersion(ctx)); err != nil {
		return sdk.Result{}, err
	}
	proj, f, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	typ := ""
	s, known := knownSetting(d, in.Name)
	if known {
		typ = s.Type
	} else if old, ok := proj.Setting(in.Name); ok {
		if k := old.Kind(); k != godot.KindObject && k != godot.KindNil {
			typ = k.String()
		}
	}
	v, err := d.CoerceType(typ, in.Value, nil)
	if err != nil {
		hint := "pass a value of type " + orAny(typ)
		var ve *godot.ValueError
		if errors.As(err, &ve) && ve.Accepted != "" {
			hint = "pass " + ve.Accepted
			short := *ve
			short.Accepted = ""
			err = &short
		}
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "value",
			Message: fmt.Sprintf("value for %s: %v", in.Name, err), Hint: hint}
	}
	out := setSettingResult{Name: in.Name, Value: godot.ToJSON(v), Text: proj.FormatValue(v), Set: true}
	if known {
		if dv, err := godot.ParseValue([]byte(s.Default)); err == nil && godot.Equal(dv, v) {
			out.Reverted = true
		}
	}
	if out.Reverted {
		proj.ClearSetting(in.Name)
	} else {
		// Where ProjectSettings saves it, not at the end of the section.
		proj.SetSettingOrdered(in.Name, v, classdb.MustEmbedded().SettingRank)
	}
	res, err := call.Workspace().Begin("Set project setting "+in.Name).Write(f.Path, proj.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Commit = res
	return sdk.JSON(out), nil
}

func orAny(typ string) string {
	if typ == "" {
		return "JSON value"
	}
	return typ
}
