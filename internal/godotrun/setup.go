package godotrun

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Target is what a tool call that runs Godot works on: the confined
// project, its settings, and the binary that suits it.
type Target struct {
	Project  *sdk.Project
	Settings *Project
	Bin      *Binary
}

// Prepare opens the call's project, reads project.godot and finds a binary
// of the project's Godot major version. Its errors are *sdk.Error to return
// as they are: PRECONDITION_FAILED with Required "project_dir" or
// "godot_bin".
func Prepare(ctx context.Context, call *sdk.Call, f *Finder) (*Target, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	settings, err := ReadProject(p.Root())
	if err != nil {
		return nil, err
	}
	bin, err := f.Find(ctx, settings.Major)
	if err != nil {
		return nil, err
	}
	return &Target{Project: p, Settings: settings, Bin: bin}, nil
}
