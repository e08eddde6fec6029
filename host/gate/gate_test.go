package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder is a fake supervisor and surface that writes every action to one
// ordered log, so tests can check what happened and in which order.
type recorder struct {
	mu      sync.Mutex
	log     []string
	failOn  string
	running map[string]bool
	// barrier, when set, holds every Start until all of its count have
	// begun: starts run one after another would never get through it.
	barrier *sync.WaitGroup
}

// startsFirst sorts the first n actions, the starts an enable runs at once
// (in no set order), so a test can compare the whole sequence.
func startsFirst(actions []string, n int) []string {
	out := slices.Clone(actions)
	slices.Sort(out[:min(n, len(out))])
	return out
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, s)
}

func (r *recorder) Start(_ context.Context, n string) error {
	r.add("start " + n)
	if r.barrier != nil {
		r.barrier.Done()
		r.barrier.Wait()
	}
	if n == r.failOn {
		return errors.New("plugin exited during start")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == nil {
		r.running = map[string]bool{}
	}
	r.running[n] = true
	return nil
}

func (r *recorder) Stop(_ context.Context, n string) error {
	r.add("stop " + n)
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, n)
	return nil
}

func (r *recorder) Show(n string) { r.add("show " + n) }
func (r *recorder) Hide(n string) { r.add("hide " + n) }

func (r *recorder) actions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

func (r *recorder) isRunning(n string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running[n]
}

func toolset(name, godot string, tools ...string) *manifest.Manifest {
	m := &manifest.Manifest{Name: name, Version: "1.0.0", Description: name + " tools", Godot: godot}
	for _, t := range tools {
		m.Tools = append(m.Tools, manifest.Tool{Name: t, Description: t, SafetyClass: manifest.ReadOnly,
			InputSchema: []byte(`{"type":"object"}`)})
	}
	return m
}

type fixture struct {
	g    *Gate
	rec  *recorder
	bus  *events.Bus
	ring *events.Ring
}

// newFixture builds a gate over inspection, scene_edit (Godot >= 4.4) and
// tilemap, with a recording supervisor and surface.
func newFixture(t *testing.T, godot string) *fixture {
	t.Helper()
	return newFixtureWith(t, godot, nil)
}

// newFixtureWith is newFixture with a surface of its own (nil: the
// recorder); wrap gets the gate before any toggle.
func newFixtureWith(t *testing.T, godot string, surface func(*recorder) (Surface, func(*Gate))) *fixture {
	t.Helper()
	rec := &recorder{}
	var sf Surface = rec
	wire := func(*Gate) {}
	if surface != nil {
		sf, wire = surface(rec)
	}
	bus := events.NewBus(nil)
	ring := events.NewRing(100)
	bus.Subscribe(ring)
	t.Cleanup(bus.Close)
	g := New(Options{
		Toolsets: []*manifest.Manifest{
			toolset("inspection", "", "tree"),
			toolset("scene_edit", ">= 4.4", "add_node", "delete_node"),
			toolset("tilemap", "", "paint"),
		},
		Plugins: rec, Surface: sf, Bus: bus,
		GodotVersion: godot, VersionSource: "flag",
	})
	wire(g)
	return &fixture{g: g, rec: rec, bus: bus, ring: ring}
}

// eventsOf closes the bus (draining every sink) and returns the kinds seen.
func (f *fixture) eventsOf(t *testing.T) []events.Event {
	t.Helper()
	f.bus.Close()
	return f.ring.Recent()
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		name   string
		config []string
		want   []string
	}{
		{"nothing configured: inspection", nil, []string{"inspection"}},
		{"configured list replaces the default", []string{"tilemap"}, []string{"tilemap"}},
		{"empty list: core only", []string{}, []string{}},
		{"all", []string{"all"}, []string{"all"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Defaults(tt.config); !slices.Equal(got, tt.want) {
				t.Errorf("Defaults(%v) = %v, want %v", tt.config, got, tt.want)
			}
		})
	}
}

func TestSeed(t *testing.T) {
	tests := []struct {
		name  string
		seed  []string
		godot string
		want  []string
	}{
		{"default", []string{"inspection"}, "", []string{"core", "inspection"}},
		{"all with known version", []string{"all"}, "4.5", []string{"core", "inspection", "scene_edit", "tilemap"}},
		{"all with unknown version skips constrained", []string{"all"}, "", []string{"core", "inspection", "tilemap"}},
		{"unknown names ignored", []string{"nope", "tilemap", "core"}, "", []string{"core", "tilemap"}},
		{"nothing", nil, "", []string{"core"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.godot)
			f.g.Seed(context.Background(), tt.seed, "startup")
			if got := f.g.EnabledSet(); !slices.Equal(got, tt.want) {
				t.Errorf("enabled after seeding %v = %v, want %v", tt.seed, got, tt.want)
			}
		})
	}
}

func TestEnableShowsAfterStartAndIsIdempotent(t *testing.T) {
	f := newFixture(t, "4.5")
	ctx := context.Background()
	ch, err := f.g.Enable(ctx, Request{Toolsets: []string{"scene_edit", "tilemap", "scene_edit", "core"}, By: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ch.Changed, []string{"scene_edit", "tilemap"}) || !slices.Equal(ch.Unchanged, []string{"core"}) {
		t.Errorf("change = %+v", ch)
	}
	want := []string{"start scene_edit", "start tilemap", "show scene_edit", "show tilemap"}
	if got := startsFirst(f.rec.actions(), 2); !slices.Equal(got, want) {
		t.Errorf("actions = %v, want %v (tools appear only once every plugin runs)", got, want)
	}
	ch, err = f.g.Enable(ctx, Request{Toolsets: []string{"tilemap"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Changed) != 0 || !slices.Equal(ch.Unchanged, []string{"tilemap"}) {
		t.Errorf("second enable = %+v, want unchanged", ch)
	}
	if got := len(f.rec.actions()); got != len(want) {
		t.Errorf("second enable acted: %v", f.rec.actions())
	}
	var enabled []string
	for _, e := range f.eventsOf(t) {
		if e.Kind == events.ToolsetEnabled {
			enabled = append(enabled, e.Toolset)
			if _, ok := e.Fields["enabled"].([]string); !ok {
				t.Errorf("ToolsetEnabled event lacks the enabled set for the editor dock: %v", e.Fields)
			}
		}
	}
	if !slices.Equal(enabled, []string{"scene_edit", "tilemap"}) {
		t.Errorf("enabled events = %v", enabled)
	}
}

func TestEnableRefusals(t *testing.T) {
	tests := []struct {
		name         string
		godot        string
		toolsets     []string
		code         string
		required     string
		hintContains []string
	}{
		{"unknown toolset", "4.5", []string{"tilemap", "nope"}, sdk.CodeUnknownToolset, "toolsets", []string{"inspection, scene_edit, tilemap"}},
		{"empty", "4.5", nil, sdk.CodeInvalidArgument, "toolsets", []string{"godot_enable_toolset"}},
		{"unknown Godot version", "", []string{"tilemap", "scene_edit"}, sdk.CodePreconditionFailed, sdk.RequiredGodotVersion, []string{">= 4.4", "found no version", "--godot-version"}},
		{"old Godot", "4.3", []string{"scene_edit"}, sdk.CodePreconditionFailed, sdk.RequiredGodotVersion, []string{">= 4.4", "found 4.3"}},
		{"unreadable version", "banana", []string{"scene_edit"}, sdk.CodePreconditionFailed, sdk.RequiredGodotVersion, []string{"banana"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.godot)
			_, err := f.g.Enable(context.Background(), Request{Toolsets: tt.toolsets})
			var gerr *sdk.Error
			if !errors.As(err, &gerr) {
				t.Fatalf("Enable(%v) error = %v, want *sdk.Error", tt.toolsets, err)
			}
			if gerr.Code != tt.code || gerr.Required != tt.required {
				t.Errorf("code, required = %s, %s; want %s, %s", gerr.Code, gerr.Required, tt.code, tt.required)
			}
			for _, s := range tt.hintContains {
				if !strings.Contains(gerr.Hint, s) {
					t.Errorf("hint %q lacks %q", gerr.Hint, s)
				}
			}
			if got := f.rec.actions(); len(got) != 0 {
				t.Errorf("a refused enable acted: %v", got)
			}
			if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core"}) {
				t.Errorf("enabled = %v after refusal", got)
			}
		})
	}
}

func TestEnableRollsBackWhenAPluginFails(t *testing.T) {
	f := newFixture(t, "4.5")
	f.rec.failOn = "tilemap"
	_, err := f.g.Enable(context.Background(), Request{Toolsets: []string{"inspection", "tilemap"}, By: "test"})
	if err == nil || !strings.Contains(err.Error(), "plugin exited during start") {
		t.Fatalf("err = %v, want the start failure", err)
	}
	want := []string{"start inspection", "start tilemap", "stop tilemap", "stop inspection"}
	if got := startsFirst(f.rec.actions(), 2); !slices.Equal(got, want) {
		t.Errorf("actions = %v, want %v", got, want)
	}
	if f.rec.isRunning("inspection") {
		t.Error("inspection still runs after the rollback")
	}
	if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core"}) {
		t.Errorf("enabled = %v", got)
	}
	var refused int
	for _, e := range f.eventsOf(t) {
		if e.Kind == events.ToolsetRefused && e.Toolset == "tilemap" {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("want one ToolsetRefused event for tilemap, got %d", refused)
	}
}

func TestDisable(t *testing.T) {
	f := newFixture(t, "4.5")
	ctx := context.Background()
	if _, err := f.g.Enable(ctx, Request{Toolsets: []string{"tilemap", "inspection"}}); err != nil {
		t.Fatal(err)
	}
	f.rec.log = nil
	ch, err := f.g.Disable(ctx, Request{Toolsets: []string{"tilemap", "scene_edit"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ch.Changed, []string{"tilemap"}) || !slices.Equal(ch.Unchanged, []string{"scene_edit"}) {
		t.Errorf("change = %+v", ch)
	}
	if got, want := f.rec.actions(), []string{"hide tilemap", "stop tilemap"}; !slices.Equal(got, want) {
		t.Errorf("actions = %v, want %v (tools go before the process)", got, want)
	}
	if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core", "inspection"}) {
		t.Errorf("enabled = %v", got)
	}
	_, err = f.g.Disable(ctx, Request{Toolsets: []string{"inspection", "core"}})
	var gerr *sdk.Error
	if !errors.As(err, &gerr) || gerr.Code != sdk.CodeInvalidArgument || gerr.Toolset != Core {
		t.Fatalf("disabling core: err = %v", err)
	}
	if !f.g.Enabled("inspection") {
		t.Error("a refused disable still disabled inspection")
	}
}

// flagSurface records, at every Show and Hide, whether the gate already
// says the toolset is on: what a concurrent tools/call would see.
type flagSurface struct {
	*recorder
	g *Gate
}

func (s *flagSurface) Show(n string) { s.add(fmt.Sprintf("show %s enabled=%v", n, s.g.Enabled(n))) }
func (s *flagSurface) Hide(n string) { s.add(fmt.Sprintf("hide %s enabled=%v", n, s.g.Enabled(n))) }

// A call that passes the gate check must find its tool registered, so the
// tools are shown before the flag goes on and hidden after it goes off.
func TestFlagFlipsOnlyWhileTheToolsAreShown(t *testing.T) {
	f := newFixtureWith(t, "4.5", func(rec *recorder) (Surface, func(*Gate)) {
		fs := &flagSurface{recorder: rec}
		return fs, func(g *Gate) { fs.g = g }
	})
	ctx := context.Background()
	if _, err := f.g.Enable(ctx, Request{Toolsets: []string{"tilemap", "inspection"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"start inspection", "start tilemap", "show tilemap enabled=false", "show inspection enabled=false"}
	if got := startsFirst(f.rec.actions(), 2); !slices.Equal(got, want) {
		t.Errorf("enable actions = %v, want %v", got, want)
	}
	if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core", "inspection", "tilemap"}) {
		t.Errorf("enabled = %v", got)
	}
	f.rec.mu.Lock()
	f.rec.log = nil
	f.rec.mu.Unlock()
	if _, err := f.g.Disable(ctx, Request{Toolsets: []string{"tilemap"}}); err != nil {
		t.Fatal(err)
	}
	want = []string{"hide tilemap enabled=false", "stop tilemap"}
	if got := f.rec.actions(); !slices.Equal(got, want) {
		t.Errorf("disable actions = %v, want %v", got, want)
	}
}

// The names Normalize returns are what Enable acts on: trimmed, deduplicated,
// and checked to be installed.
func TestNormalize(t *testing.T) {
	f := newFixture(t, "4.5")
	got, err := f.g.Normalize([]string{" tilemap", "tilemap ", "core", "\tinspection"}, "godot_enable_toolset")
	if err != nil || !slices.Equal(got, []string{"tilemap", "core", "inspection"}) {
		t.Errorf("Normalize = %v, %v", got, err)
	}
	again, err := f.g.Normalize(got, "godot_enable_toolset")
	if err != nil || !slices.Equal(again, got) {
		t.Errorf("Normalize is not idempotent: %v, %v", again, err)
	}
	var gerr *sdk.Error
	if _, err := f.g.Normalize([]string{" nope "}, "godot_enable_toolset"); !errors.As(err, &gerr) || gerr.Code != sdk.CodeUnknownToolset || gerr.Toolset != "nope" {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := f.g.Normalize(nil, "godot_disable_toolset"); !errors.As(err, &gerr) || gerr.Code != sdk.CodeInvalidArgument {
		t.Errorf("no names: %v", err)
	}
}

func TestVersionChangeDisablesUnsatisfied(t *testing.T) {
	f := newFixture(t, "4.5")
	ctx := context.Background()
	if _, err := f.g.Enable(ctx, Request{Toolsets: []string{"scene_edit", "tilemap"}}); err != nil {
		t.Fatal(err)
	}
	f.g.SetGodotVersion(ctx, "4.3.stable", "editor")
	if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core", "tilemap"}) {
		t.Errorf("enabled = %v, want scene_edit gone", got)
	}
	if v, src := f.g.GodotVersion(); v != "4.3.stable" || src != "editor" {
		t.Errorf("version = %q from %q", v, src)
	}
	var kinds []string
	for _, e := range f.eventsOf(t) {
		if e.Kind == events.VersionChanged || e.Kind == events.ToolsetDisabled {
			kinds = append(kinds, fmt.Sprintf("%s/%s", e.Kind, e.Toolset))
			if e.Kind == events.ToolsetDisabled && e.Fields["reason"] != sdk.RequiredGodotVersion {
				t.Errorf("disable event reason = %v", e.Fields["reason"])
			}
		}
	}
	want := []string{"godot_version_changed/", "toolset_disabled/scene_edit"}
	if !slices.Equal(kinds, want) {
		t.Errorf("events = %v, want %v", kinds, want)
	}
	for _, ts := range f.g.Toolsets() {
		if ts.Name == "scene_edit" && (ts.Blocked == nil || ts.Enabled) {
			t.Errorf("scene_edit listing = %+v, want blocked and off", ts)
		}
	}
}

func TestDisabledErrorNamesTheEnableCall(t *testing.T) {
	f := newFixture(t, "")
	e := f.g.DisabledError("scene_edit", "godot_scene_edit_add_node")
	if !strings.Contains(e.Hint, `godot_enable_toolset({"toolsets":["scene_edit"]})`) {
		t.Errorf("hint = %q", e.Hint)
	}
	if e.Code != sdk.CodeToolsetDisabled || e.Toolset != "scene_edit" {
		t.Errorf("error = %+v", e)
	}
}

func TestConcurrentToggles(t *testing.T) {
	f := newFixture(t, "4.5")
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				req := Request{Toolsets: []string{"tilemap", "inspection"}}
				if i%2 == 0 {
					_, _ = f.g.Enable(ctx, req)
				} else {
					_, _ = f.g.Disable(ctx, req)
				}
				_ = f.g.Toolsets()
			}
		}()
	}
	wg.Wait()
	// Whatever the interleaving, a running plugin and an enabled toolset
	// must agree.
	for _, n := range []string{"tilemap", "inspection"} {
		if f.g.Enabled(n) != f.rec.isRunning(n) {
			t.Errorf("%s: enabled=%v running=%v", n, f.g.Enabled(n), f.rec.isRunning(n))
		}
	}
}

func TestParseGodotVersion(t *testing.T) {
	for in, want := range map[string]string{"4.7": "4.7.0", "4.4.1.stable.official.49a5bc7b6": "4.4.1", "v4.3": "4.3.0"} {
		v, err := ParseGodotVersion(in)
		if err != nil || v.String() != want {
			t.Errorf("ParseGodotVersion(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	if _, err := ParseGodotVersion("stable"); err == nil {
		t.Error("ParseGodotVersion(\"stable\") succeeded")
	}
}

// The built-in default names inspection, which is often not installed: that
// is normal and must not warn, while a configured unknown name must.
func TestSeedWarnsOnlyForConfiguredUnknownNames(t *testing.T) {
	for _, tt := range []struct {
		by       string
		wantWarn bool
	}{
		{BuiltinDefault, false},
		{"startup", true},
	} {
		var buf strings.Builder
		g := New(Options{
			Toolsets: []*manifest.Manifest{toolset("tilemap", "", "paint")},
			Plugins:  &recorder{}, Surface: &recorder{},
			Logger: hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Info}),
		})
		g.Seed(context.Background(), []string{Inspection}, tt.by)
		if warned := strings.Contains(buf.String(), "[WARN]"); warned != tt.wantWarn {
			t.Errorf("Seed by %q: warned=%v, want %v; log:\n%s", tt.by, warned, tt.wantWarn, buf.String())
		}
	}
}

// Enabling several toolsets starts their plugins at once: every Start here
// waits until all have begun, which starts made one by one never reach.
func TestEnableStartsPluginsConcurrently(t *testing.T) {
	f := newFixture(t, "4.5")
	var barrier sync.WaitGroup
	barrier.Add(3)
	f.rec.barrier = &barrier
	done := make(chan error, 1)
	go func() {
		_, err := f.g.Enable(context.Background(), Request{Toolsets: []string{"inspection", "scene_edit", "tilemap"}})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the starts never all ran at once: Enable starts plugins one after another")
	}
	if got := f.g.EnabledSet(); !slices.Equal(got, []string{"core", "inspection", "scene_edit", "tilemap"}) {
		t.Errorf("enabled = %v", got)
	}
}

// Toolsets names the tools that work in one mode only, from their
// manifests; a tool that declares no modes works in both.
func TestToolsetsNameSingleModeTools(t *testing.T) {
	m := toolset("scene_edit", "", "select", "scaffold", "add_node")
	m.Tools[0].Modes = []manifest.Mode{manifest.ModeEditor}
	m.Tools[1].Modes = []manifest.Mode{manifest.ModeHeadless}
	m.Tools[2].Modes = []manifest.Mode{manifest.ModeHeadless, manifest.ModeEditor}
	g := New(Options{Toolsets: []*manifest.Manifest{m, toolset("tilemap", "", "paint")}, GodotVersion: "4.5"})
	ts := g.Toolsets()
	if len(ts) != 2 || !slices.Equal(ts[0].EditorOnly, []string{"godot_scene_edit_select"}) ||
		!slices.Equal(ts[0].HeadlessOnly, []string{"godot_scene_edit_scaffold"}) || ts[1].EditorOnly != nil || ts[1].HeadlessOnly != nil {
		t.Fatalf("toolsets %+v", ts)
	}
}
