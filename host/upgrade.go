package host

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// DefaultWatchInterval is how often the host looks for replaced plugin
// binaries (Options.WatchInterval).
const DefaultWatchInterval = time.Second

// Hot upgrades
//
// A package manager, `go build -o`, or an operator copying a file replaces
// a plugin binary while the host serves. The watcher notices, checks the
// new binary as a start would (catalog.Refresh: lock file, --describe,
// name, clashes), starts it beside the old one and swaps it in between
// calls (supervisor.Upgrade). If its tools changed, the tool table is
// replaced and clients get list_changed. A refused or broken binary leaves
// the old one serving; why is logged, emitted as an event and listed by
// godot_health_check until a later binary is accepted.
//
// The watcher polls: it stats every cataloged binary once per interval,
// and hashes one only when its size, modification time or inode changed
// and then stayed the same for one more interval (a binary being written is
// not taken half-way). Polling was chosen over inotify (fsnotify) because
// installers replace files in several ways (rename into place, which
// changes the inode and drops a file watch; truncate and write; symlink
// flips) and network file systems send no events at all; a stat per binary
// per second costs microseconds and no dependency.

// fileStamp is what the watcher compares between polls.
type fileStamp struct {
	size  int64
	mtime time.Time
	ino   uint64
}

func stampOf(path string) (fileStamp, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{size: info.Size(), mtime: info.ModTime(), ino: inode(info)}, true
}

// upgrader watches the cataloged binaries and swaps changed ones in.
type upgrader struct {
	cat   *catalog.Catalog
	sup   *supervisor.Supervisor
	tools *server.Tools
	gate  *gate.Gate
	bus   *events.Bus
	log   hclog.Logger

	mu       sync.Mutex
	lock     fileStamp            // of the lock file (zero: none)
	seen     map[string]fileStamp // by toolset: the stamp of the binary in use
	pending  map[string]fileStamp // a changed stamp waiting to settle
	refused  map[string]string    // sha256 of a new binary already refused
	failures map[string]error     // start failures of new binaries, for the health check
}

func newUpgrader(cat *catalog.Catalog, sup *supervisor.Supervisor, tools *server.Tools, g *gate.Gate, bus *events.Bus, log hclog.Logger) *upgrader {
	u := &upgrader{cat: cat, sup: sup, tools: tools, gate: g, bus: bus, log: log,
		seen: map[string]fileStamp{}, pending: map[string]fileStamp{}, refused: map[string]string{}, failures: map[string]error{}}
	for _, e := range cat.Entries() {
		if st, ok := stampOf(e.Path); ok {
			u.seen[e.Name] = st
		}
	}
	u.lock, _ = stampOf(cat.LockPath())
	return u
}

// problems are the start failures of new binaries (the catalog lists its
// own refusals).
func (u *upgrader) problems() []error {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]error, 0, len(u.failures))
	for _, err := range u.failures {
		out = append(out, err)
	}
	return out
}

// run polls until ctx ends.
func (u *upgrader) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			u.poll(ctx)
		}
	}
}

// poll checks every binary once and upgrades those that changed and
// settled.
func (u *upgrader) poll(ctx context.Context) {
	// A changed lock file (`plugins lock` after an upgrade) may now trust
	// a binary refused before: forget the refusals and look at every
	// binary whose digest differs from the one in use.
	lockStamp, _ := stampOf(u.cat.LockPath())
	u.mu.Lock()
	relock := lockStamp != u.lock
	u.lock = lockStamp
	if relock {
		clear(u.refused)
	}
	u.mu.Unlock()
	if relock {
		for _, e := range u.cat.Entries() {
			if sum, err := catalog.HashFile(e.Path); err == nil && sum != e.SHA256 {
				if st, ok := stampOf(e.Path); ok {
					u.mu.Lock()
					u.seen[e.Name] = st
					u.mu.Unlock()
				}
				u.Upgrade(ctx, e.Name, sum)
			}
		}
	}
	for _, e := range u.cat.Entries() {
		st, ok := stampOf(e.Path)
		if !ok {
			continue // removed: the running plugin serves on; a restart of the host drops it
		}
		u.mu.Lock()
		prev, pend := u.seen[e.Name], u.pending[e.Name]
		switch {
		case st == prev:
			delete(u.pending, e.Name)
			u.mu.Unlock()
			continue
		case st != pend:
			u.pending[e.Name] = st // changed: wait one interval for it to settle
			u.mu.Unlock()
			continue
		}
		delete(u.pending, e.Name)
		u.seen[e.Name] = st
		u.mu.Unlock()
		sum, err := catalog.HashFile(e.Path)
		if err != nil || sum == e.SHA256 {
			continue // touched, not changed
		}
		u.mu.Lock()
		again := u.refused[e.Name] == sum
		u.mu.Unlock()
		if !again {
			u.Upgrade(ctx, e.Name, sum)
		}
	}
}

// Upgrade re-catalogs the toolset's binary and swaps it in; see the
// section comment. sum is the digest that triggered it, remembered when
// refused so the same broken binary is not tried every second.
func (u *upgrader) Upgrade(ctx context.Context, name, sum string) {
	old, _ := u.cat.Lookup(name)
	e, err := u.cat.Refresh(name)
	if err != nil {
		u.refuse(name, sum, err)
		return
	}
	if err := u.sup.Upgrade(ctx, e); err != nil {
		// The supervisor emitted upgrade_failed; keep it for the health
		// check. The catalog has the new entry: the next start tries it.
		u.mu.Lock()
		u.refused[name] = sum
		u.failures[name] = err
		u.mu.Unlock()
		return
	}
	u.mu.Lock()
	delete(u.refused, name)
	delete(u.failures, name)
	u.mu.Unlock()
	if toolsChanged(old.Manifest, e.Manifest) {
		for _, err := range u.tools.Replace(e.Manifest, u.gate != nil && u.gate.Enabled(name)) {
			u.log.Error("tool not exposed", "error", err)
		}
	}
	if u.gate != nil {
		// Listings show the new version; its Godot constraint gates from
		// now on (and disables the toolset if it excludes this Godot).
		u.gate.Replace(ctx, e.Manifest, "upgrade")
	}
	u.log.Info("plugin binary upgraded", "toolset", name, "path", e.Path, "sha256", e.SHA256, "version", e.Manifest.Version)
}

func (u *upgrader) refuse(name, sum string, err error) {
	u.mu.Lock()
	u.refused[name] = sum
	u.mu.Unlock()
	u.log.Warn("new plugin binary refused; the old one serves on", "toolset", name, "error", err)
	if u.bus != nil {
		u.bus.Emit(events.Event{Kind: events.Kind("plugin_" + supervisor.EventUpgradeFailed), Level: events.Warning, Toolset: name,
			Message: err.Error()})
	}
}

// toolsChanged reports whether the tools of two manifests differ in
// anything clients see.
func toolsChanged(a, b *manifest.Manifest) bool {
	if a == nil || b == nil {
		return a != b
	}
	ja, _ := json.Marshal(a.Tools)
	jb, _ := json.Marshal(b.Tools)
	return string(ja) != string(jb)
}

// startWatching starts the hot-upgrade watcher and the dev builders; Close
// stops them.
func (h *Host) startWatching(every time.Duration, dev *devPlugins) {
	if every < 0 && len(dev.plugins) == 0 {
		dev.close()
		return
	}
	if every <= 0 {
		every = DefaultWatchInterval
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.stop = func() {
		cancel()
		h.bg.Wait()
		dev.close()
	}
	h.bg.Add(1)
	go func() {
		defer h.bg.Done()
		h.upgrader.run(ctx, every)
	}()
	dev.run(ctx, every, &h.bg)
}
