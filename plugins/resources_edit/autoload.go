package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// checkAutoloadName accepts what the editor's Autoload tab accepts: a
// valid identifier that is not an engine class or global constant name
// (a singleton of that name would shadow it).
func checkAutoloadName(name string) error {
	if name == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a name such as \"Global\"", "name is empty")
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return sdk.Errorf(sdk.CodeInvalidArgument, "use a valid identifier: letters, digits and '_', not starting with a digit", "autoload name %q is not a valid identifier", name)
		}
	}
	d, err := classDB()
	if err != nil {
		return err
	}
	if d.Exists(name) {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pick a name that is not an engine class", "autoload name %q is the name of an engine class", name)
	}
	return nil
}

type registerArgs struct {
	Name      string      `json:"name" jsonschema:"autoload name, a valid identifier such as \"Global\""`
	Path      sdk.ResPath `json:"path" jsonschema:"res:// path of the script (.gd) or scene (.tscn) to load"`
	Singleton *bool       `json:"singleton,omitempty" jsonschema:"make it a global variable reachable by name from every script (the editor's 'Global Variable')" default:"true"`
}

type autoloadResult struct {
	Name         string           `json:"name"`
	Path         string           `json:"path,omitempty"`
	Singleton    bool             `json:"singleton,omitempty"`
	Registered   bool             `json:"registered,omitempty"`
	Unregistered bool             `json:"unregistered,omitempty"`
	Order        []string         `json:"order" jsonschema:"the autoloads in load order after the change"`
	Commit       sdk.CommitResult `json:"commit"`
}

func autoloadOrder(p *godot.Project) []string {
	return append([]string{}, p.Keys("autoload")...)
}

// checkRegister checks register_autoload's arguments the same way in both
// modes.
func checkRegister(in registerArgs) error {
	if err := checkAutoloadName(in.Name); err != nil {
		return err
	}
	// Not a godot ext tag: "cannot be an autoload" says more than which
	// extensions are allowed.
	if ext := filepath.Ext(string(in.Path)); ext != ".gd" && ext != ".tscn" && ext != ".scn" && ext != ".cs" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass a script (.gd, .cs) or a scene (.tscn)", "%s cannot be an autoload", in.Path)
	}
	return nil
}

// registerAutoloadCommand is register_autoload's editor path.
func registerAutoloadCommand(in registerArgs) (any, error) {
	if err := checkRegister(in); err != nil {
		return nil, err
	}
	if in.Singleton != nil && !*in.Singleton {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "leave singleton at true with an editor attached, or register it in the editor's Autoload tab", "the editor registers autoloads as singletons only")
	}
	return map[string]any{"name": in.Name, "path": in.Path}, nil
}

func registerAutoload(ctx context.Context, call *sdk.Call, in registerArgs) (sdk.Result, error) {
	if err := checkRegister(in); err != nil {
		return sdk.Result{}, err
	}
	path := string(in.Path)
	singleton := in.Singleton == nil || *in.Singleton
	ws := call.Workspace()
	fi, err := ws.Stat(ctx, path)
	if err != nil {
		return sdk.Result{}, err
	}
	if !fi.Exists || fi.IsDir {
		return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, "check the path with godot_project_search_files", "%s does not exist", path)
	}
	p, f, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if old, ok := p.Get("autoload", in.Name); ok {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "unregister it first, or pick another name", "autoload %q is already registered (%s)", in.Name, godot.FormatValue(old))
	}
	for _, k := range p.Keys("autoload") {
		if v, _ := p.Get("autoload", k); v != nil {
			if s, ok := v.(godot.String); ok && strings.TrimPrefix(string(s), "*") == path {
				return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "a file is loaded once; unregister the other name first", "%s is already the autoload %q", path, k)
			}
		}
	}
	val := path
	if singleton {
		val = "*" + path
	}
	p.Set("autoload", in.Name, godot.String(val))
	cr, err := ws.Begin("Register autoload "+in.Name).Write(f.Path, p.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(autoloadResult{Name: in.Name, Path: path, Singleton: singleton, Registered: true, Order: autoloadOrder(p), Commit: cr}), nil
}

type unregisterArgs struct {
	Name string `json:"name" jsonschema:"autoload name"`
}

// unregisterAutoloadCommand is unregister_autoload's editor path.
func unregisterAutoloadCommand(in unregisterArgs) (any, error) {
	if in.Name == "" {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass the autoload's name", "name is empty")
	}
	return map[string]any{"name": in.Name}, nil
}

func unregisterAutoload(ctx context.Context, call *sdk.Call, in unregisterArgs) (sdk.Result, error) {
	if _, err := unregisterAutoloadCommand(in); err != nil {
		return sdk.Result{}, err
	}
	p, f, err := call.Workspace().ReadProject(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if !p.Clear("autoload", in.Name) {
		return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, fmt.Sprintf("registered autoloads: %s", strings.Join(autoloadOrder(p), ", ")), "no autoload named %q", in.Name)
	}
	cr, err := call.Workspace().Begin("Unregister autoload "+in.Name).Write(f.Path, p.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(autoloadResult{Name: in.Name, Unregistered: true, Order: autoloadOrder(p), Commit: cr}), nil
}
