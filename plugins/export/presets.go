package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// preset is one [preset.N] section of export_presets.cfg.
type preset struct {
	Index      int    `json:"index" jsonschema:"N of the [preset.N] section"`
	Name       string `json:"name"`
	Platform   string `json:"platform" jsonschema:"such as Linux/X11, Windows Desktop, Web"`
	Runnable   bool   `json:"runnable"`
	ExportPath string `json:"export_path,omitempty" jsonschema:"where the editor last exported this preset, relative to the project"`
	Filter     string `json:"export_filter,omitempty"`
}

type listResult struct {
	Presets []preset `json:"presets"`
	Note    string   `json:"note,omitempty"`
}

type infoArgs struct {
	Preset string `json:"preset,omitempty" jsonschema:"name of the preset, as list_presets shows it; may be left out when the project has one preset"`
}

type infoResult struct {
	Preset   preset            `json:"preset"`
	Settings map[string]string `json:"settings" jsonschema:"every key of the [preset.N] section, values as written in the file"`
	Options  map[string]string `json:"options" jsonschema:"every key of the [preset.N.options] section, values as written in the file"`
	// Templates are reported only when a Godot binary is found.
	Godot             string `json:"godot,omitempty" jsonschema:"version of the Godot binary that would export"`
	TemplatesDir      string `json:"templates_dir,omitempty" jsonschema:"where that Godot looks for export templates"`
	TemplatesPresent  *bool  `json:"templates_present,omitempty" jsonschema:"whether that directory exists; without templates only mode=pack works"`
	BinaryUnavailable string `json:"binary_unavailable,omitempty" jsonschema:"why no binary was found, when none was"`
}

const presetsFile = "export_presets.cfg"

// maxPresetsBytes bounds what is read of export_presets.cfg: the editor
// writes a few kilobytes per preset.
const maxPresetsBytes = 8 << 20

// readPresets parses export_presets.cfg; a missing file is no presets.
// Only a regular file is read: a named pipe planted under that name would
// otherwise block the call until something writes to it.
func readPresets(root string) (*godot.ConfigFile, []preset, error) {
	path := filepath.Join(root, presetsFile)
	data, err := sdk.ReadRegular(path, maxPresetsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	var notRegular *sdk.NotRegularError
	if errors.As(err, &notRegular) {
		return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "remove it, and recreate the presets in the editor's Export dialog",
			"res://%s %s", presetsFile, notRegular.Error())
	}
	if err != nil {
		return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix or remove export_presets.cfg, then retry",
			"export_presets.cfg cannot be read: %v", err)
	}
	c, err := godot.ParseConfig(path, data)
	if err != nil {
		return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix export_presets.cfg, or recreate the presets in the editor's Export dialog",
			"export_presets.cfg does not parse: %v", err)
	}
	var out []preset
	for _, sec := range c.Sections() {
		rest, ok := strings.CutPrefix(sec, "preset.")
		if !ok || strings.Contains(rest, ".") {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil {
			continue
		}
		p := preset{Index: n}
		p.Name = str(c, sec, "name")
		p.Platform = str(c, sec, "platform")
		p.ExportPath = str(c, sec, "export_path")
		p.Filter = str(c, sec, "export_filter")
		if v, ok := c.Get(sec, "runnable"); ok {
			b, _ := v.(godot.Bool)
			p.Runnable = bool(b)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return c, out, nil
}

func str(c *godot.ConfigFile, sec, key string) string {
	v, ok := c.Get(sec, key)
	if !ok {
		return ""
	}
	if s, ok := v.(godot.String); ok {
		return string(s)
	}
	return fmt.Sprint(v)
}

// rawSection returns a section's keys with their values as written.
func rawSection(c *godot.ConfigFile, sec string) map[string]string {
	out := map[string]string{}
	for _, k := range c.Keys(sec) {
		v, _ := c.Get(sec, k)
		if s, ok := v.(godot.String); ok {
			out[k] = string(s)
			continue
		}
		out[k] = strings.TrimSpace(godot.FormatValue(v))
	}
	return out
}

func listPresets(_ context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	_, presets, err := readPresets(p.Root())
	if err != nil {
		return sdk.Result{}, err
	}
	res := listResult{Presets: presets}
	if presets == nil {
		res.Presets = []preset{}
		res.Note = "the project has no export_presets.cfg: add presets in the Godot editor (Project > Export) first"
	}
	return sdk.JSON(res), nil
}

// findPreset looks a preset up by name.
func findPreset(root, name string) (*godot.ConfigFile, preset, error) {
	c, presets, err := readPresets(root)
	if err != nil {
		return nil, preset{}, err
	}
	if name == "" && len(presets) == 1 {
		return c, presets[0], nil // the one preset needs no name
	}
	var names []string
	for _, p := range presets {
		if p.Name == name {
			return c, p, nil
		}
		names = append(names, strconv.Quote(p.Name))
	}
	hint := "the project has no export presets: add one in the Godot editor (Project > Export)"
	if len(names) > 0 {
		hint = "use one of " + strings.Join(names, ", ")
	}
	if name == "" {
		return nil, preset{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "preset",
			Message: fmt.Sprintf("the project has %d export presets; name one", len(presets)), Hint: "pass preset: " + strings.TrimPrefix(hint, "use ")}
	}
	return nil, preset{}, sdk.Errorf(sdk.CodeNotFound, hint, "no export preset named %q", name)
}

func getExportInfo(ctx context.Context, call *sdk.Call, in infoArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	c, pr, err := findPreset(p.Root(), in.Preset)
	if err != nil {
		return sdk.Result{}, err
	}
	sec := "preset." + strconv.Itoa(pr.Index)
	res := infoResult{Preset: pr, Settings: rawSection(c, sec), Options: rawSection(c, sec+".options")}
	t, err := godotrun.Prepare(ctx, call, finder)
	if err != nil {
		res.BinaryUnavailable = err.Error()
		return sdk.JSON(res), nil
	}
	res.Godot = t.Bin.Version
	res.TemplatesDir = templatesDir(t.Bin)
	present := false
	if st, err := os.Stat(res.TemplatesDir); err == nil && st.IsDir() {
		present = true
	}
	res.TemplatesPresent = &present
	return sdk.JSON(res), nil
}

// templatesDir is where a Godot binary looks for its export templates: the
// user data directory, then templates/ (Godot 3) or export_templates/
// (Godot 4), then the version without its build name ("3.2.3.stable").
func templatesDir(b *godotrun.Binary) string {
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" {
		home, _ := os.UserHomeDir()
		data = filepath.Join(home, ".local", "share")
	}
	sub := "export_templates"
	if b.Major == 3 {
		sub = "templates"
	}
	parts := strings.Split(b.Version, ".")
	// Keep the numbers and the status (stable, beta1, …), drop the build.
	keep := 0
	for keep < len(parts) {
		if _, err := strconv.Atoi(parts[keep]); err != nil {
			keep++
			break
		}
		keep++
	}
	return filepath.Join(data, "godot", sub, strings.Join(parts[:keep], "."))
}
