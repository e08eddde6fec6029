package godotrun

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Project is what a run needs to know about a Godot project.
type Project struct {
	// Dir is the project directory.
	Dir string
	// Major is the Godot major version the project is for: 3 for
	// config_version=4 (Godot 3.x), 4 for config_version=5; 0 when unknown.
	Major int
	// MainScene is application/run/main_scene, "" when unset.
	MainScene string
	// Settings is the parsed project.godot.
	Settings *godot.Project
}

// ReadProject reads dir/project.godot. Failures are *sdk.Error.
func ReadProject(dir string) (*Project, error) {
	path := filepath.Join(dir, "project.godot")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed,
			"start godot-mcp with the directory that holds project.godot",
			"cannot read project.godot: %v", err)
	}
	p, err := godot.ParseProject(path, data)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix project.godot so Godot can open the project",
			"project.godot does not parse: %v", err)
	}
	out := &Project{Dir: dir, Settings: p}
	if v, ok := p.Get("", "config_version"); ok {
		if n, ok := v.(godot.Int); ok {
			switch n {
			case 4:
				out.Major = 3
			case 5:
				out.Major = 4
			}
		}
	}
	if v, ok := p.Setting("application/run/main_scene"); ok {
		if s, ok := v.(godot.String); ok {
			out.MainScene = string(s)
		} else {
			out.MainScene = fmt.Sprint(v)
		}
	}
	return out, nil
}
