package host

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// scaffoldToolset is the toolset that creates a project in an empty
// project folder; the host enables it when the folder has no project.godot.
const scaffoldToolset = "project_scaffold"

// projectWatch runs plugin calls and, after each, looks whether the call
// changed the project's project.godot (created it: a scaffold; or rewrote
// its config/features). If so it re-reads the Godot version, so toolsets
// with a Godot constraint work on a project scaffolded while the host
// runs, without a restart. A version from --godot-version or from an
// attached editor is not overridden.
type projectWatch struct {
	server.Plugins
	dir      string
	log      hclog.Logger
	defaults []string // the default toolsets, enabled once a version is first known

	mu      sync.Mutex
	gate    *gate.Gate // set once the gate exists
	stamp   projectStamp
	version string // read from project.godot; "" for none
}

type projectStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

func projectStampOf(path string) projectStamp {
	st, err := os.Stat(path)
	if err != nil {
		return projectStamp{}
	}
	return projectStamp{exists: true, size: st.Size(), mod: st.ModTime()}
}

func newProjectWatch(p server.Plugins, dir, version string, log hclog.Logger) *projectWatch {
	w := &projectWatch{Plugins: p, dir: dir, log: log, version: version}
	if dir != "" {
		w.stamp = projectStampOf(filepath.Join(dir, "project.godot"))
	}
	return w
}

// Call implements server.Plugins.
func (w *projectWatch) Call(ctx context.Context, toolset string, req supervisor.CallRequest, onProgress func(supervisor.Progress)) (sdk.Result, error) {
	res, err := w.Plugins.Call(ctx, toolset, req, onProgress)
	w.check(context.WithoutCancel(ctx))
	return res, err
}

// check re-reads the version when project.godot changed since last seen.
func (w *projectWatch) check(ctx context.Context) {
	if w.dir == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gate == nil {
		return
	}
	st := projectStampOf(filepath.Join(w.dir, "project.godot"))
	if st == w.stamp {
		return
	}
	w.stamp = st
	v := ""
	if st.exists {
		var err error
		if v, err = ProjectGodotVersion(w.dir); err != nil {
			w.log.Warn("cannot read the Godot version from the changed project.godot", "error", err)
			return
		}
	}
	if v == w.version {
		return
	}
	old := w.version
	w.version = v
	if _, source := w.gate.GodotVersion(); source == VersionFromFlag || source == VersionFromEditor {
		return
	}
	src := VersionFromProject
	if v == "" {
		src = ""
	}
	w.gate.SetGodotVersion(ctx, v, src)
	if old == "" && v != "" {
		// The project came into being: the default toolsets that waited
		// for a Godot version (inspection) are enabled now.
		w.gate.Seed(ctx, w.defaults, "project.godot created")
	}
}

// current is the version read from the project and its source, for when
// an editor detaches.
func (w *projectWatch) current() (string, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version == "" {
		return "", ""
	}
	return w.version, VersionFromProject
}
