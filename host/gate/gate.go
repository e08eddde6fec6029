// Package gate owns the enabled set: which toolsets an agent can see and
// call right now, in this host process.
//
// There is one enabled set per host process, shared by every connection: a
// grant made on one connection is what the next connection sees. The set
// always holds "core" (the host's own tools); by default it also holds
// "inspection"; every other toolset starts gated off, and a toolset the host
// has not seen at start is never on until someone enables it.
//
// A toggle is a transaction. Enable checks every named toolset first
// (installed? satisfied by the Godot version?), then starts the plugins, and
// only when all of them run does it show their tools, so a failed enable
// changes nothing. Disable hides the tools before it stops the plugin, so no
// call is routed to a process that is going away.
//
// Gate knows nothing about MCP: it drives plugins through [Plugins] and the
// tool list through [Surface], which the host implements with the supervisor
// and the MCP server's table of tools. Every decision is an event on the
// bus. See the package example for the wiring.
package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Core is the host's own toolset. It is always enabled and cannot be toggled.
const Core = manifest.CoreToolset

// Inspection is the toolset enabled by default when it is installed.
const Inspection = "inspection"

// All, in a list of default toolsets, stands for every installed toolset.
const All = "all"

// Plugins starts and stops toolset processes. The host implements it with
// the supervisor; both calls must be idempotent.
type Plugins interface {
	Start(ctx context.Context, toolset string) error
	Stop(ctx context.Context, toolset string) error
}

// Surface adds and removes a toolset's tools on the MCP endpoint. Show is
// called after the plugin runs, Hide before it is stopped. Both must be
// quick and must not block on clients: notifying clients is the surface's
// business and never the toggle's.
type Surface interface {
	Show(toolset string)
	Hide(toolset string)
}

// Options configures a Gate.
type Options struct {
	// Toolsets are the installed, validated toolsets (from the catalog).
	Toolsets []*manifest.Manifest
	// Plugins starts and stops plugin processes; nil means the toolsets have
	// no processes (tests, or a host that only lists).
	Plugins Plugins
	// Surface shows and hides tools; nil means nothing is shown.
	Surface Surface
	// Bus receives every decision; nil means no events.
	Bus *events.Bus
	// Logger is for things that are not decisions (nil: discard).
	Logger hclog.Logger
	// Version is the Godot version, shared with whoever else reads it. When
	// nil, the gate makes its own from GodotVersion ("" when unknown) and
	// VersionSource ("flag", "project.godot", …).
	Version       *Version
	GodotVersion  string
	VersionSource string
}

// Gate is the enabled set and the transactions that change it. It is safe
// for concurrent use; transactions are serialised.
type Gate struct {
	opts  Options
	log   hclog.Logger
	names []string // installed toolset names, sorted; never change

	// txn serialises transactions (enable, disable, version change, seed,
	// upgrade). It is held while plugins start, so readers use mu instead.
	txn sync.Mutex

	mu       sync.RWMutex
	toolsets map[string]*manifest.Manifest // by name; Replace swaps one in
	enabled  map[string]bool
	version  *Version
}

// Version is the Godot version toolsets are checked against, and where it
// came from ("flag", "project.godot", an editor). The gate changes it
// (SetGodotVersion); the supervisor reads it to configure plugins. It is its
// own value so both can be built from it without one reaching into the
// other. Safe for concurrent use.
type Version struct {
	mu              sync.RWMutex
	version, source string
}

// NewVersion returns a Version holding version ("" when unknown) and its
// source.
func NewVersion(version, source string) *Version {
	return &Version{version: strings.TrimSpace(version), source: source}
}

// Get returns the version and its source.
func (v *Version) Get() (version, source string) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.version, v.source
}

// String returns the version alone, for the supervisor's Configure.
func (v *Version) String() string {
	s, _ := v.Get()
	return s
}

// swap sets a new version and returns the old one.
func (v *Version) swap(version, source string) (old string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	old = v.version
	v.version, v.source = version, source
	return old
}

// New returns a gate with only core enabled. Nothing starts until Seed or
// Enable.
func New(opts Options) *Gate {
	g := &Gate{
		opts:     opts,
		log:      opts.Logger,
		toolsets: map[string]*manifest.Manifest{},
		enabled:  map[string]bool{},
		version:  opts.Version,
	}
	if g.version == nil {
		g.version = NewVersion(opts.GodotVersion, opts.VersionSource)
	}
	if g.log == nil {
		g.log = hclog.NewNullLogger()
	}
	for _, m := range opts.Toolsets {
		if m == nil || m.Name == Core {
			continue
		}
		g.toolsets[m.Name] = m
		g.names = append(g.names, m.Name)
	}
	sort.Strings(g.names)
	return g
}

// Defaults returns the toolsets to seed: the configured list when there is
// one (config.Load has already applied GODOT_MCP_DEFAULT_TOOLSETS to it),
// else inspection. A configured list replaces the default rather than adding
// to it, so an operator can start with inspection off ("" or []).
func Defaults(configured []string) []string {
	if configured != nil {
		return slices.Clone(configured)
	}
	return []string{Inspection}
}

// BuiltinDefault is the Seed origin for the built-in default set (no
// default_toolsets configured and no GODOT_MCP_DEFAULT_TOOLSETS): a default
// toolset that is not installed is then skipped quietly.
const BuiltinDefault = "startup (built-in default)"

// Request is one toggle: the toolsets to change and who asks (for events).
type Request struct {
	Toolsets []string
	By       string
}

// Change reports what a toggle did.
type Change struct {
	// Changed are the toolsets this call turned on (Enable) or off (Disable).
	Changed []string
	// Unchanged were already in the asked state (toggles are idempotent).
	Unchanged []string
}

// Seed enables the named toolsets at start ("all" stands for every
// installed one). Unlike Enable it is not all-or-nothing: an unknown name is
// logged and ignored, a refused or failing toolset is reported as an event
// and the rest still start.
func (g *Gate) Seed(ctx context.Context, names []string, by string) {
	var want []string
	for _, n := range names {
		switch {
		case n == All:
			want = append(want, g.names...)
		case n == Core:
			// always on
		case g.manifest(n) == nil && by == BuiltinDefault:
			// inspection is on by default only when installed; its
			// absence is normal, not a configuration mistake.
			g.log.Debug("built-in default toolset not installed", "toolset", n)
		case g.manifest(n) == nil:
			g.log.Warn("ignoring unknown toolset in the default set; install its plugin or fix the name",
				"toolset", n, "source", "GODOT_MCP_DEFAULT_TOOLSETS or default_toolsets in the policy config", "installed", strings.Join(g.names, ","))
		default:
			want = append(want, n)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	for _, n := range want {
		if _, err := g.Enable(ctx, Request{Toolsets: []string{n}, By: by}); err != nil {
			g.log.Warn("default toolset not enabled", "toolset", n, "error", err)
		}
	}
}

// Enable turns the named toolsets on. It checks all of them before starting
// any, and rolls back the plugins it started when one fails, so the enabled
// set either gains every named toolset or stays as it was.
func (g *Gate) Enable(ctx context.Context, req Request) (Change, error) {
	names, err := g.Normalize(req.Toolsets, "godot_enable_toolset")
	if err != nil {
		return Change{}, err
	}
	g.txn.Lock()
	defer g.txn.Unlock()

	var ch Change
	var todo []*manifest.Manifest
	godot, source := g.GodotVersion()
	for _, n := range names {
		if n == Core || g.Enabled(n) {
			ch.Unchanged = append(ch.Unchanged, n)
			continue
		}
		m := g.manifest(n)
		if gerr := checkVersion(n, m.Godot, godot, source); gerr != nil {
			g.refused(n, req.By, gerr)
			return Change{}, gerr
		}
		todo = append(todo, m)
	}

	if err := g.startAll(ctx, todo, req.By); err != nil {
		return Change{}, err
	}

	// Show the tools before the flag flips, so that a client that sees the
	// enable result (or list_changed) and lists again finds the tools.
	// Calls do not depend on it: the server dispatches from its own
	// registry and this flag.
	for _, m := range todo {
		if g.opts.Surface != nil {
			g.opts.Surface.Show(m.Name)
		}
		ch.Changed = append(ch.Changed, m.Name)
	}
	g.mu.Lock()
	for _, m := range todo {
		g.enabled[m.Name] = true
	}
	g.mu.Unlock()
	for _, m := range todo {
		g.emit(events.Event{
			Kind:    events.ToolsetEnabled,
			Toolset: m.Name,
			Message: fmt.Sprintf("toolset %q enabled (%d tools)", m.Name, len(m.Tools)),
			Fields:  map[string]any{"by": req.By, "tools": len(m.Tools), "enabled": g.EnabledSet()},
		})
	}
	return ch, nil
}

// Disable turns the named toolsets off: their tools disappear, then their
// plugins stop. Disabling a toolset that is off is not an error; disabling
// core is.
func (g *Gate) Disable(ctx context.Context, req Request) (Change, error) {
	names, err := g.Normalize(req.Toolsets, "godot_disable_toolset")
	if err != nil {
		return Change{}, err
	}
	for _, n := range names {
		if n == Core {
			return Change{}, &sdk.Error{
				Code:     sdk.CodeInvalidArgument,
				Toolset:  Core,
				Message:  "toolset \"core\" cannot be disabled",
				Hint:     "core holds toolset management and diagnostics and is always on; name other toolsets",
				Required: "toolsets",
			}
		}
	}
	g.txn.Lock()
	defer g.txn.Unlock()
	var ch Change
	for _, n := range names {
		if !g.Enabled(n) {
			ch.Unchanged = append(ch.Unchanged, n)
			continue
		}
		g.turnOff(ctx, n)
		ch.Changed = append(ch.Changed, n)
		g.emit(events.Event{
			Kind:    events.ToolsetDisabled,
			Toolset: n,
			Message: fmt.Sprintf("toolset %q disabled", n),
			Fields:  map[string]any{"by": req.By, "reason": "requested", "enabled": g.EnabledSet()},
		})
	}
	return ch, nil
}

// turnOff forgets the toolset, hides its tools and stops its plugin: the
// reverse of Enable. The flag goes first, so a call that finds its tool
// already hidden also finds the toolset off (the server answers it with
// TOOLSET_DISABLED), and the tools go before the process. A stop failure is
// logged: the toolset is off either way, and the supervisor kills the
// process group when the host exits.
func (g *Gate) turnOff(ctx context.Context, n string) {
	g.mu.Lock()
	delete(g.enabled, n)
	g.mu.Unlock()
	if g.opts.Surface != nil {
		g.opts.Surface.Hide(n)
	}
	if g.opts.Plugins != nil {
		if err := g.opts.Plugins.Stop(ctx, n); err != nil {
			g.log.Error("stopping a disabled toolset's plugin failed", "toolset", n, "error", err)
		}
	}
}

// SetGodotVersion records a new Godot version (an editor attached, the
// project changed) and disables every enabled toolset that no longer
// satisfies it, each with a ToolsetDisabled event naming the reason.
func (g *Gate) SetGodotVersion(ctx context.Context, godot, source string) {
	godot = strings.TrimSpace(godot)
	g.txn.Lock()
	defer g.txn.Unlock()
	old := g.version.swap(godot, source)
	if old == godot {
		return
	}
	g.emit(events.Event{
		Kind:    events.VersionChanged,
		Message: fmt.Sprintf("Godot version changed from %q to %q (%s)", old, godot, sourceOr(source)),
		Fields:  map[string]any{"from": old, "to": godot, "source": source},
	})
	for _, n := range g.EnabledSet() {
		m := g.manifest(n)
		if m == nil {
			continue
		}
		g.offIfUnsupported(ctx, m, godot, source, "godot_version", "")
	}
}

// offIfUnsupported turns the enabled toolset of m off when its Godot
// constraint excludes godot, with a ToolsetDisabled event naming the reason
// (prefix, if any, goes before it). by says what changed. Holds txn.
func (g *Gate) offIfUnsupported(ctx context.Context, m *manifest.Manifest, godot, source, by, prefix string) {
	gerr := checkVersion(m.Name, m.Godot, godot, source)
	if gerr == nil {
		return
	}
	g.turnOff(ctx, m.Name)
	g.emit(events.Event{
		Kind:    events.ToolsetDisabled,
		Level:   events.Warning,
		Toolset: m.Name,
		Message: prefix + gerr.Message + "; toolset disabled",
		Fields: map[string]any{"by": by, "reason": sdk.RequiredGodotVersion,
			"hint": gerr.Hint, "enabled": g.EnabledSet()},
	})
}

// GodotVersion returns the Godot version toolsets are checked against and
// where it came from; "" when unknown.
func (g *Gate) GodotVersion() (version, source string) {
	return g.version.Get()
}

// startAll starts the plugins of todo at once: each start is mostly
// waiting (a process to exec, a handshake, Describe and Configure), so
// enabling twelve toolsets takes about as long as the slowest one. If any
// fails, every one is stopped again (a half-started process must not
// outlive a refused enable) and the first failure in todo's order is
// reported, so the answer does not depend on which start lost a race.
func (g *Gate) startAll(ctx context.Context, todo []*manifest.Manifest, by string) error {
	if g.opts.Plugins == nil || len(todo) == 0 {
		return nil
	}
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for i, m := range todo {
		wg.Go(func() { errs[i] = g.opts.Plugins.Start(ctx, m.Name) })
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			continue
		}
		// Stop is idempotent: stopping the ones that failed too is safe.
		for _, m := range slices.Backward(todo) {
			if serr := g.opts.Plugins.Stop(context.WithoutCancel(ctx), m.Name); serr != nil {
				g.log.Error("rolling back an enable: stopping a plugin failed", "toolset", m.Name, "error", serr)
			}
		}
		wrapped := fmt.Errorf("enabling toolset %q: %w", todo[i].Name, err)
		g.refused(todo[i].Name, by, wrapped)
		return wrapped
	}
	return nil
}

// Enabled reports whether the toolset is on. Core always is.
func (g *Gate) Enabled(name string) bool {
	if name == Core {
		return true
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.enabled[name]
}

// EnabledSet returns the enabled toolsets, core first, then sorted.
func (g *Gate) EnabledSet() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := []string{Core}
	for _, n := range g.names {
		if g.enabled[n] {
			out = append(out, n)
		}
	}
	return out
}

// Toolset describes one installed toolset for listings.
type Toolset struct {
	Name        string
	Version     string
	Description string
	// Godot is the toolset's Godot version constraint ("" = any).
	Godot string
	Tools int
	// EditorOnly and HeadlessOnly are the exposed names of the tools that
	// work in one mode only (manifest modes); the rest work in both.
	EditorOnly, HeadlessOnly []string
	Enabled                  bool
	// Blocked is why the toolset cannot be enabled right now (the Godot
	// version does not satisfy its constraint), or nil.
	Blocked *sdk.Error
}

// Toolsets lists the installed toolsets (core excluded), sorted by name.
func (g *Gate) Toolsets() []Toolset {
	godot, source := g.GodotVersion()
	out := make([]Toolset, 0, len(g.names))
	for _, n := range g.names {
		m := g.manifest(n)
		ts := Toolset{
			Name:        n,
			Version:     m.Version,
			Description: m.Description,
			Godot:       m.Godot,
			Tools:       len(m.Tools),
			Enabled:     g.Enabled(n),
			Blocked:     checkVersion(n, m.Godot, godot, source),
		}
		for _, t := range m.Tools {
			switch {
			case !t.Supports(manifest.ModeHeadless):
				ts.EditorOnly = append(ts.EditorOnly, exposure.ExposedName(n, t.Name))
			case !t.Supports(manifest.ModeEditor):
				ts.HeadlessOnly = append(ts.HeadlessOnly, exposure.ExposedName(n, t.Name))
			}
		}
		out = append(out, ts)
	}
	return out
}

// Manifest returns an installed toolset's manifest: the one of the binary
// now installed, after a hot upgrade too.
func (g *Gate) Manifest(name string) (*manifest.Manifest, bool) {
	m := g.manifest(name)
	return m, m != nil
}

func (g *Gate) manifest(name string) *manifest.Manifest {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.toolsets[name]
}

// Replace records the manifest of a toolset whose binary was upgraded while
// the host runs: listings show the new version, and the new Godot
// constraint gates from now on. If the toolset is enabled and its new
// constraint excludes the Godot version in use, it is disabled, with the
// same ToolsetDisabled event a version change gives. A toolset that is not
// installed is ignored (upgrades never add one).
func (g *Gate) Replace(ctx context.Context, m *manifest.Manifest, by string) {
	if m == nil || m.Name == Core {
		return
	}
	g.txn.Lock()
	defer g.txn.Unlock()
	g.mu.Lock()
	if g.toolsets[m.Name] == nil {
		g.mu.Unlock()
		return
	}
	g.toolsets[m.Name] = m
	g.mu.Unlock()
	if !g.Enabled(m.Name) {
		return
	}
	godot, source := g.GodotVersion()
	g.offIfUnsupported(ctx, m, godot, source, by, fmt.Sprintf("version %s of toolset %q: ", m.Version, m.Name))
}

// DisabledError is the refusal for calling a tool of a toolset that is off.
// It names the exact call that turns the toolset on, because an agent that
// reads "unknown tool" gives up while one that reads the fix applies it.
func (g *Gate) DisabledError(toolset, tool string) *sdk.Error {
	return &sdk.Error{
		Code:     sdk.CodeToolsetDisabled,
		Toolset:  toolset,
		Required: sdk.RequiredToolsetEnabled,
		Message:  fmt.Sprintf("tool %q belongs to toolset %q, which is not enabled", tool, toolset),
		Hint:     fmt.Sprintf(`enable it first: godot_enable_toolset({"toolsets":["%s"]})`, toolset),
	}
}

// Installed reports whether a toolset is installed (core always is).
func (g *Gate) Installed(name string) bool {
	return name == Core || g.manifest(name) != nil
}

// Normalize checks a toggle's arguments: at least one name, each installed.
// Names are trimmed, duplicates are dropped, order is kept. tool names the
// toggle in the hint. Enable and Disable call it themselves; a caller that
// checks the names before a toggle (the server's policy check) must check
// and pass on the normalised list, so the check and the toggle see the same
// names. Normalising a normalised list returns it unchanged.
func (g *Gate) Normalize(names []string, tool string) ([]string, error) {
	if len(names) == 0 {
		return nil, &sdk.Error{
			Code:     sdk.CodeInvalidArgument,
			Message:  "no toolsets named",
			Hint:     fmt.Sprintf(`pass {"toolsets": ["name", …]} to %s; godot_list_toolsets shows the names`, tool),
			Required: "toolsets",
		}
	}
	var out []string
	var unknown []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if slices.Contains(out, n) {
			continue
		}
		if !g.Installed(n) {
			unknown = append(unknown, n)
			continue
		}
		out = append(out, n)
	}
	if len(unknown) > 0 {
		toolset := unknown[0]
		if manifest.CheckName(toolset) != nil {
			toolset = "" // not a toolset name at all: not echoed as one
		}
		return nil, &sdk.Error{
			Code:    sdk.CodeUnknownToolset,
			Toolset: toolset,
			Message: fmt.Sprintf("no toolset named %s is installed", quoteList(unknown)),
			Hint: fmt.Sprintf("installed toolsets: %s; call godot_list_toolsets for descriptions",
				strings.Join(g.names, ", ")),
			Required: "toolsets",
		}
	}
	return out, nil
}

func (g *Gate) refused(toolset, by string, err error) {
	fields := map[string]any{"by": by}
	msg := err.Error()
	var gerr *sdk.Error
	if errors.As(err, &gerr) {
		msg = gerr.Message
		fields["code"] = gerr.Code
		fields["required"] = gerr.Required
		fields["hint"] = gerr.Hint
	}
	g.emit(events.Event{
		Kind:    events.ToolsetRefused,
		Level:   events.Warning,
		Toolset: toolset,
		Message: fmt.Sprintf("toolset %q not enabled: %s", toolset, msg),
		Fields:  fields,
	})
}

func (g *Gate) emit(e events.Event) {
	if g.opts.Bus != nil {
		g.opts.Bus.Emit(e)
	}
}

// quoteList quotes caller-supplied names for a message: each cut to a
// readable length, and at most five of them.
func quoteList(names []string) string {
	const most = 5
	q := make([]string, 0, min(len(names), most))
	for _, n := range names[:min(len(names), most)] {
		q = append(q, sdk.QuoteInput(n))
	}
	if len(names) > most {
		q = append(q, fmt.Sprintf("and %d more", len(names)-most))
	}
	return strings.Join(q, ", ")
}
