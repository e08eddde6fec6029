package exposure

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

func newChain(t *testing.T, cfg *config.Config) *Chain {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	c, err := NewChain(cfg)
	if err != nil {
		t.Fatalf("NewChain: %v", err)
	}
	return c
}

// tools returns read-only agent tools of toolset "t" with the given names.
func tools(names ...string) []Tool {
	out := make([]Tool, len(names))
	for i, n := range names {
		out[i] = Tool{Name: n, Toolset: "t", Class: manifest.ReadOnly, Scope: manifest.AgentScope}
	}
	return out
}

func names(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// emitted runs EmitFiltered on a fresh bus and returns what a ring sink got.
func emitted(d Decision) []events.Event {
	bus := events.NewBus(nil)
	ring := events.NewRing(100)
	bus.Subscribe(ring)
	EmitFiltered(bus, d)
	bus.Close()
	return ring.Recent()
}

func TestWorkedExamples(t *testing.T) {
	t.Run("child narrows parent", func(t *testing.T) {
		c := newChain(t, &config.Config{Profiles: map[string]config.Profile{
			"parent": {Allow: []string{"a", "b", "c"}, Deny: []string{"c"}},
			"child":  {Inherit: "parent", Allow: []string{"b", "c", "d"}},
		}})
		d := c.Evaluate(Context{Profile: "child"}, tools("a", "b", "c", "d"))
		if got := names(d.Visible); !reflect.DeepEqual(got, []string{"b"}) {
			t.Errorf("visible = %v, want [b]", got)
		}
	})

	t.Run("allow a deny b over a b c", func(t *testing.T) {
		for _, layer := range []string{LayerOperator, LayerProfile} {
			cfg := &config.Config{}
			ctx := Context{Principal: "ci-bot", Transport: TransportStdio}
			if layer == LayerOperator {
				cfg.Operator = config.OperatorLists{Allow: []string{"a"}, Deny: []string{"b"}}
			} else {
				cfg.Profiles = map[string]config.Profile{"ci": {Allow: []string{"a"}, Deny: []string{"b"}}}
				ctx.Profile = "ci"
			}
			d := newChain(t, cfg).Evaluate(ctx, tools("a", "b", "c"))
			want := []Filtered{{By: layer, Excluded: []string{"b", "c"}, Remaining: 1}}
			if !reflect.DeepEqual(d.Filtered, want) {
				t.Errorf("%s: filtered = %+v, want %+v", layer, d.Filtered, want)
			}
			if got := names(d.Visible); !reflect.DeepEqual(got, []string{"a"}) {
				t.Errorf("%s: visible = %v", layer, got)
			}
			evs := emitted(d)
			if len(evs) != 1 {
				t.Fatalf("%s: %d events, want 1: %v", layer, len(evs), evs)
			}
			e := evs[0]
			if e.Kind != events.ToolsFiltered || e.Fields["by"] != layer || e.Fields["remaining"] != 1 ||
				!reflect.DeepEqual(e.Fields["excluded"], []string{"b", "c"}) ||
				e.Fields["principal"] != "ci-bot" || e.Fields["profile"] != ctx.Profile {
				t.Errorf("%s: event = %+v", layer, e)
			}
		}
	})

	t.Run("nothing withheld, no event", func(t *testing.T) {
		c := newChain(t, &config.Config{Operator: config.OperatorLists{Deny: []string{"z"}}})
		d := c.Evaluate(Context{Transport: TransportStdio}, tools("a", "b", "c"))
		if len(d.Visible) != 3 || d.Withheld != nil || d.Filtered != nil {
			t.Errorf("decision = %+v", d)
		}
		if evs := emitted(d); len(evs) != 0 {
			t.Errorf("events = %v, want none", evs)
		}
	})

	t.Run("empty allow means nothing", func(t *testing.T) {
		for _, cfg := range []*config.Config{
			{Operator: config.OperatorLists{Allow: []string{}}},
			{Profiles: map[string]config.Profile{"p": {Allow: []string{}}}},
			{Profiles: map[string]config.Profile{"parent": {Allow: []string{}}, "p": {Inherit: "parent", Allow: []string{"*"}}}},
		} {
			d := newChain(t, cfg).Evaluate(Context{Profile: "p", Transport: TransportStdio}, tools("a", "b"))
			if len(d.Visible) != 0 {
				t.Errorf("%+v: visible = %v, want nothing", cfg, names(d.Visible))
			}
		}
	})

	t.Run("absent allow means no restriction", func(t *testing.T) {
		c := newChain(t, &config.Config{Profiles: map[string]config.Profile{"p": {Deny: []string{"b"}}}})
		d := c.Evaluate(Context{Profile: "p", Transport: TransportStdio}, tools("a", "b", "c"))
		if got := names(d.Visible); !reflect.DeepEqual(got, []string{"a", "c"}) {
			t.Errorf("visible = %v", got)
		}
	})
}

func TestListEntries(t *testing.T) {
	cands := []Tool{
		{Name: "godot_scene_edit_add_node", Toolset: "scene_edit", Class: manifest.Mutating},
		{Name: "godot_scene_edit_get_tree", Toolset: "scene_edit", Class: manifest.ReadOnly},
		{Name: "godot_scene_edit_delete", Toolset: "scene_edit", Class: manifest.Destructive},
		{Name: "godot_runtime_play", Toolset: "runtime", Class: manifest.Runtime},
		{Name: "godot_tilemap_get", Toolset: "tilemap", Class: manifest.ReadOnly},
	}
	tests := []struct {
		allow, deny []string
		want        []string
	}{
		{[]string{"scene_edit"}, nil, []string{"godot_scene_edit_add_node", "godot_scene_edit_get_tree", "godot_scene_edit_delete"}},
		{[]string{"class:read_only"}, nil, []string{"godot_scene_edit_get_tree", "godot_tilemap_get"}},
		{nil, []string{"class:destructive", "runtime"}, []string{"godot_scene_edit_add_node", "godot_scene_edit_get_tree", "godot_tilemap_get"}},
		{[]string{"godot_scene_edit_*"}, []string{"godot_scene_edit_delete"}, []string{"godot_scene_edit_add_node", "godot_scene_edit_get_tree"}},
		{[]string{"*"}, []string{"scene_*"}, []string{"godot_runtime_play", "godot_tilemap_get"}},
		{[]string{"godot_tilemap_get", "class:runtime"}, nil, []string{"godot_runtime_play", "godot_tilemap_get"}},
		{[]string{"scene_edit"}, []string{"scene_edit"}, []string{}}, // deny wins
	}
	for _, tt := range tests {
		c := newChain(t, &config.Config{Operator: config.OperatorLists{Allow: tt.allow, Deny: tt.deny}})
		got := names(c.Evaluate(Context{Transport: TransportStdio}, cands).Visible)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("allow %v deny %v: visible %v, want %v", tt.allow, tt.deny, got, tt.want)
		}
	}
}

func TestClassificationFailsClosed(t *testing.T) {
	bad := []Tool{
		{Name: "no_class", Toolset: "t"},
		{Name: "bogus_class", Toolset: "t", Class: "harmless"},
		{Name: "no_toolset", Class: manifest.ReadOnly},
		{Toolset: "t", Class: manifest.ReadOnly},
	}
	good := tools("ok")
	cands := append(slices.Clone(bad), good...)
	for name, c := range map[string]*Chain{
		"allow everything": newChain(t, &config.Config{Operator: config.OperatorLists{Allow: []string{"*"}}}),
		"empty Compose":    Compose(),
	} {
		d := c.Evaluate(Context{Transport: TransportCLI}, cands)
		if got := names(d.Visible); !reflect.DeepEqual(got, []string{"ok"}) {
			t.Errorf("%s: visible = %v", name, got)
		}
		for _, b := range bad {
			if ok, layer := c.Check(Context{}, b); ok || layer != LayerClassification {
				t.Errorf("%s: Check(%+v) = %v, %q", name, b, ok, layer)
			}
		}
	}
}

func TestScope(t *testing.T) {
	c := newChain(t, &config.Config{})
	cands := []Tool{
		{Name: "agent", Toolset: "t", Class: manifest.ReadOnly, Scope: manifest.AgentScope},
		{Name: "unset", Toolset: "t", Class: manifest.ReadOnly},
		{Name: "cli", Toolset: "t", Class: manifest.ReadOnly, Scope: manifest.CLIScope},
		{Name: "weird", Toolset: "t", Class: manifest.ReadOnly, Scope: "robot"},
	}
	for _, tt := range []struct {
		transport string
		want      []string
	}{
		{TransportStdio, []string{"agent", "unset"}},
		{TransportHTTP, []string{"agent", "unset"}},
		{"", []string{"agent", "unset"}},
		{TransportCLI, []string{"agent", "unset", "cli"}},
	} {
		d := c.Evaluate(Context{Transport: tt.transport}, cands)
		if got := names(d.Visible); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("transport %q: visible %v, want %v", tt.transport, got, tt.want)
		}
		if d.Withheld["weird"] != LayerScope {
			t.Errorf("transport %q: unknown scope withheld by %q", tt.transport, d.Withheld["weird"])
		}
	}
}

func TestTransportCeiling(t *testing.T) {
	cfg := &config.Config{
		Profiles: map[string]config.Profile{
			"developer": {},
			"ci":        {Allow: []string{"class:read_only"}},
		},
		Transport: map[string]config.Ceiling{config.TransportHTTPRemote: {Profile: "ci"}},
	}
	c := newChain(t, cfg)
	cands := []Tool{
		{Name: "read", Toolset: "t", Class: manifest.ReadOnly},
		{Name: "write", Toolset: "t", Class: manifest.Mutating},
	}
	for _, tt := range []struct {
		ctx  Context
		want []string
	}{
		{Context{Profile: "developer", Transport: TransportHTTP, Loopback: false}, []string{"read"}},
		{Context{Profile: "developer", Transport: TransportHTTP, Loopback: true}, []string{"read", "write"}},
		{Context{Profile: "developer", Transport: TransportStdio}, []string{"read", "write"}},
		{Context{Profile: "developer", Transport: config.TransportHTTPRemote}, []string{"read"}},
		{Context{Profile: "developer", Transport: config.TransportHTTPLoopback}, []string{"read", "write"}},
		{Context{Profile: "developer"}, []string{"read"}}, // unknown transport counts as remote
		{Context{Profile: "developer", Transport: TransportCLI}, []string{"read", "write"}},
	} {
		d := c.Evaluate(tt.ctx, cands)
		if got := names(d.Visible); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%+v: visible %v, want %v", tt.ctx, got, tt.want)
		}
		if len(tt.want) == 1 && d.Withheld["write"] != LayerTransport {
			t.Errorf("%+v: write withheld by %q, want transport", tt.ctx, d.Withheld["write"])
		}
	}
	d := c.Evaluate(Context{Profile: "developer", Transport: TransportHTTP}, cands)
	evs := FilteredEvents(d)
	if len(evs) != 1 || evs[0].Message != `http_remote ceiling "ci" withheld 1 tool (1 remain)` {
		t.Errorf("events = %v", evs)
	}
}

func TestUnknownProfileWithholdsAll(t *testing.T) {
	c := newChain(t, &config.Config{Profiles: map[string]config.Profile{"ci": {}}})
	d := c.Evaluate(Context{Profile: "cj", Transport: TransportStdio}, tools("a", "b"))
	if len(d.Visible) != 0 || d.Withheld["a"] != LayerProfile {
		t.Errorf("decision = %+v", d)
	}
	_, why := c.Why(Context{Profile: "cj"}, tools("a")[0])
	if !strings.Contains(why, `profile "cj" is not defined`) {
		t.Errorf("why = %q", why)
	}
}

func TestNewChainRejectsBrokenConfig(t *testing.T) {
	// Configs built in Go without Validate still cannot produce a chain
	// that silently ignores a broken rule.
	for _, tt := range []struct {
		cfg  *config.Config
		want string
	}{
		{&config.Config{Operator: config.OperatorLists{Deny: []string{"class:nope"}}}, "not a safety class"},
		{&config.Config{Profiles: map[string]config.Profile{"a": {Inherit: "b"}}}, `inherits "b", which is not defined`},
		{&config.Config{Profiles: map[string]config.Profile{"a": {Inherit: "b"}, "b": {Inherit: "a"}}}, "inheritance cycle"},
		{&config.Config{Transport: map[string]config.Ceiling{"stdio": {Profile: "x"}}}, "transport.stdio.ceiling"},
	} {
		if _, err := NewChain(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewChain(%+v) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
	if c, err := NewChain(nil); err != nil || len(c.Evaluate(Context{}, tools("a")).Visible) != 1 {
		t.Errorf("NewChain(nil) = %v, %v", c, err)
	}
}

// layerFunc is a test layer.
type layerFunc struct {
	name string
	keep func(Context, Tool) bool
}

func (l layerFunc) Name() string                  { return l.name }
func (l layerFunc) Keep(ctx Context, t Tool) bool { return l.keep(ctx, t) }

func TestMisbehavingLayers(t *testing.T) {
	dropB := layerFunc{"drop_b", func(_ Context, t Tool) bool { return t.Name != "b" }}
	keepAll := layerFunc{"keep_all", func(Context, Tool) bool { return true }}
	panics := layerFunc{"panics", func(_ Context, t Tool) bool {
		if t.Name == "c" {
			panic("layer bug")
		}
		return true
	}}
	c := Compose(dropB, keepAll, panics)
	cands := tools("a", "b", "c")
	d := c.Evaluate(Context{}, cands)
	if got := names(d.Visible); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("visible = %v, want [a]", got)
	}
	want := map[string]string{"b": "drop_b", "c": "panics"}
	if !reflect.DeepEqual(d.Withheld, want) {
		t.Errorf("withheld = %v, want %v", d.Withheld, want)
	}
	for _, tool := range cands {
		ok, layer := c.Check(Context{}, tool)
		if ok != slices.Contains(names(d.Visible), tool.Name) || layer != d.Withheld[tool.Name] {
			t.Errorf("Check(%s) = %v, %q disagrees with Evaluate", tool.Name, ok, layer)
		}
	}
	if got := c.Layers(); !reflect.DeepEqual(got, []string{LayerClassification, "drop_b", "keep_all", "panics"}) {
		t.Errorf("layers = %v", got)
	}
	if l, why := c.Why(Context{}, cands[1]); l != "drop_b" || why != "withheld by the drop_b layer" {
		t.Errorf("Why = %q, %q", l, why)
	}
	evs := FilteredEvents(d)
	if len(evs) != 2 || evs[0].Message != `layer "drop_b" withheld 1 tool (2 remain)` {
		t.Errorf("events = %v", evs)
	}
}

func TestWhyAndAuthorize(t *testing.T) {
	c := newChain(t, &config.Config{
		Operator: config.OperatorLists{Deny: []string{"class:destructive"}},
		Profiles: map[string]config.Profile{
			"developer": {Deny: []string{"runtime"}},
			"ci":        {Inherit: "developer", Allow: []string{"class:read_only"}},
		},
	})
	ctx := Context{Profile: "ci", Transport: TransportHTTP, Loopback: true}
	for _, tt := range []struct {
		tool          Tool
		layer, reason string
	}{
		{Tool{Name: "godot_scene_edit_delete", Toolset: "scene_edit", Class: manifest.Destructive}, LayerOperator, `operator policy denies "class:destructive"`},
		{Tool{Name: "godot_scene_edit_add", Toolset: "scene_edit", Class: manifest.Mutating}, LayerProfile, `profile "ci" allows only "class:read_only"`},
		{Tool{Name: "godot_runtime_get", Toolset: "runtime", Class: manifest.ReadOnly}, LayerProfile, `profile "developer" denies "runtime" (inherited by profile "ci")`},
		{Tool{Name: "godot_x_y", Toolset: "x", Class: manifest.ReadOnly, Scope: manifest.CLIScope}, LayerScope, "godot-mcp call"},
		{Tool{Name: "godot_x_z", Toolset: "x"}, LayerClassification, "unclassified"},
		{Tool{Name: "godot_x_ok", Toolset: "x", Class: manifest.ReadOnly}, "", ""},
	} {
		layer, reason := c.Why(ctx, tt.tool)
		if layer != tt.layer || !strings.Contains(reason, tt.reason) {
			t.Errorf("Why(%s) = %q, %q; want %q, %q", tt.tool.Name, layer, reason, tt.layer, tt.reason)
		}
		err := c.Authorize(ctx, tt.tool)
		if tt.layer == "" {
			if err != nil {
				t.Errorf("Authorize(%s) = %v", tt.tool.Name, err)
			}
			continue
		}
		var ne *NotExposedError
		if !errors.As(err, &ne) || ne.Code() != CodeNotExposed || ne.Layer != tt.layer || ne.Tool != tt.tool.Name {
			t.Errorf("Authorize(%s) = %#v", tt.tool.Name, err)
		} else if !strings.Contains(err.Error(), "TOOL_NOT_EXPOSED") || !strings.Contains(err.Error(), tt.layer) {
			t.Errorf("Authorize(%s) message = %q", tt.tool.Name, err)
		}
	}
}

func TestWidens(t *testing.T) {
	c := newChain(t, &config.Config{
		Operator: config.OperatorLists{Deny: []string{"secret"}},
		Profiles: map[string]config.Profile{"ci": {Allow: []string{"class:read_only"}}},
	})
	ctx := Context{Profile: "ci", Transport: TransportStdio}
	mk := func(toolset string, specs ...string) []Tool {
		var out []Tool
		for _, s := range specs {
			name, class, _ := strings.Cut(s, ":")
			t := Tool{Name: "godot_" + toolset + "_" + name, Toolset: toolset, Class: manifest.SafetyClass(class)}
			if strings.HasPrefix(name, "cli") {
				t.Scope = manifest.CLIScope
			}
			out = append(out, t)
		}
		return out
	}
	for _, tt := range []struct {
		name     string
		tools    []Tool
		withheld []string
		layer    string
	}{
		{"all visible", mk("inspect", "a:read_only", "b:read_only"), nil, ""},
		{"some visible", mk("scene", "get:read_only", "add:mutating"), []string{"godot_scene_add"}, ""},
		{"none visible", mk("scene", "add:mutating", "del:destructive"), []string{"godot_scene_add", "godot_scene_del"}, LayerProfile},
		{"denied by name", mk("secret", "get:read_only"), []string{"godot_secret_get"}, LayerOperator},
		{"cli only", mk("ops", "cli_a:read_only"), []string{"godot_ops_cli_a"}, LayerScope},
		{"cli tools ignored", mk("ops", "cli_a:mutating", "get:read_only"), nil, ""},
		{"empty toolset", nil, nil, LayerScope},
	} {
		withheld, layer := c.Widens(ctx, tt.tools)
		if !reflect.DeepEqual(withheld, tt.withheld) || layer != tt.layer {
			t.Errorf("%s: Widens = %v, %q; want %v, %q", tt.name, withheld, layer, tt.withheld, tt.layer)
		}
	}
}

func TestValidateNames(t *testing.T) {
	cfg := &config.Config{
		Path: "policy.toml",
		Operator: config.OperatorLists{
			Allow: []string{"scene_edit", "core", "godot_health_check", "class:read_only", "godot_tilemap_*", "*"},
			Deny:  []string{"scene_edt", "godot_nothing_*"},
		},
		Profiles: map[string]config.Profile{"ci": {Deny: []string{"godot_scene_edit_add_nod", "zzzzzz"}}},
	}
	c := newChain(t, cfg)
	known := KnownTools(append(tools(), Tool{Name: "godot_scene_edit_add_node", Toolset: "scene_edit"},
		Tool{Name: "godot_tilemap_get", Toolset: "tilemap"}))
	err := c.ValidateNames(known)
	if err == nil {
		t.Fatal("ValidateNames accepted unknown names")
	}
	msg := err.Error()
	for _, w := range []string{
		`policy.toml: operator.deny[0]: "scene_edt" names no installed toolset or tool; did you mean "scene_edit"?`,
		`policy.toml: operator.deny[1]: pattern "godot_nothing_*" matches no installed toolset or tool`,
		`profiles.ci.deny[0]: "godot_scene_edit_add_nod" names no installed toolset or tool; did you mean "godot_scene_edit_add_node"?`,
		`profiles.ci.deny[1]: "zzzzzz" names no installed toolset or tool; fix the name`,
		"installed toolsets: core, scene_edit, tilemap",
	} {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 4 {
		t.Errorf("%d errors, want 4:\n%s", n, msg)
	}
	ok := newChain(t, &config.Config{Operator: config.OperatorLists{Allow: []string{"core", "class:mutating"}}})
	if err := ok.ValidateNames(Known{}); err != nil {
		t.Errorf("core names rejected: %v", err)
	}
}

func TestCoreToolsAndNames(t *testing.T) {
	if len(CoreTools) != 9 {
		t.Fatalf("%d core tools", len(CoreTools))
	}
	for _, ct := range CoreTools {
		if ok, layer := Compose().Check(Context{}, ct); !ok {
			t.Errorf("core tool %s withheld by %s", ct.Name, layer)
		}
		mutating := ct.Name == "godot_enable_toolset" || ct.Name == "godot_disable_toolset" ||
			ct.Name == "godot_undo" || ct.Name == "godot_redo"
		if (ct.Class == manifest.Mutating) != mutating || ct.Toolset != CoreToolset {
			t.Errorf("core tool %+v", ct)
		}
		if ExposedName(CoreToolset, strings.TrimPrefix(ct.Name, "godot_")) != ct.Name {
			t.Errorf("ExposedName does not compose %s", ct.Name)
		}
	}
	m := &manifest.Manifest{Name: "scene_edit", Tools: []manifest.Tool{
		{Name: "add_node", SafetyClass: manifest.Mutating},
		{Name: "export", SafetyClass: manifest.ReadOnly, Scope: manifest.CLIScope},
	}}
	want := []Tool{
		{Name: "godot_scene_edit_add_node", Toolset: "scene_edit", Class: manifest.Mutating, Scope: manifest.AgentScope},
		{Name: "godot_scene_edit_export", Toolset: "scene_edit", Class: manifest.ReadOnly, Scope: manifest.CLIScope},
	}
	if got := FromManifest(m); !reflect.DeepEqual(got, want) {
		t.Errorf("FromManifest = %+v", got)
	}
}

func TestEventMessages(t *testing.T) {
	c := newChain(t, &config.Config{
		Operator: config.OperatorLists{Deny: []string{"x"}},
		Profiles: map[string]config.Profile{"ci": {Allow: []string{"a", "k"}}},
	})
	cands := append(tools("a", "b", "c", "x"),
		Tool{Name: "u", Toolset: "t"},
		Tool{Name: "k", Toolset: "t", Class: manifest.ReadOnly, Scope: manifest.CLIScope})
	cands = append(cands, tools("a2")...)
	d := c.Evaluate(Context{Profile: "ci", Principal: "bot", Transport: TransportStdio}, cands)
	var got []string
	for _, e := range FilteredEvents(d) {
		got = append(got, e.Message)
	}
	want := []string{
		"classification withheld 1 tool (6 remain)",
		"operator policy withheld 1 tool (5 remain)",
		`profile "ci" withheld 3 tools (2 remain)`,
		"scope (cli-only tools) withheld 1 tool (1 remain)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages = %q\nwant %q", got, want)
	}
	EmitFiltered(nil, d) // a nil bus is a no-op
}
