package exposure

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// gen draws random tool sets and policies over a small universe, so lists
// and tools collide often enough for every rule to be exercised.
type gen struct{ r *rand.Rand }

var (
	propToolsets = []string{"t0", "t1", "t2", "t3"}
	propClasses  = []manifest.SafetyClass{manifest.ReadOnly, manifest.Mutating, manifest.Destructive, manifest.Runtime, "", "bogus"}
)

func (g gen) tools() []Tool {
	n := g.r.IntN(25)
	out := make([]Tool, 0, n)
	for i := range n {
		ts := propToolsets[g.r.IntN(len(propToolsets))]
		t := Tool{
			Name:    fmt.Sprintf("godot_%s_n%d", ts, i),
			Toolset: ts,
			Class:   propClasses[g.r.IntN(len(propClasses))],
		}
		switch g.r.IntN(10) {
		case 0:
			t.Toolset = "" // unattributed: must never be visible
		case 1:
			t.Scope = manifest.CLIScope
		case 2:
			t.Scope = manifest.AgentScope
		}
		out = append(out, t)
	}
	return out
}

func (g gen) entry() string {
	switch g.r.IntN(6) {
	case 0:
		return propToolsets[g.r.IntN(len(propToolsets))]
	case 1:
		return config.ClassPrefix + string(manifest.Classes[g.r.IntN(len(manifest.Classes))])
	case 2:
		return fmt.Sprintf("godot_%s_*", propToolsets[g.r.IntN(len(propToolsets))])
	case 3:
		if g.r.IntN(4) == 0 {
			return "*"
		}
		return fmt.Sprintf("godot_t*_n%d", g.r.IntN(25))
	}
	return fmt.Sprintf("godot_%s_n%d", propToolsets[g.r.IntN(len(propToolsets))], g.r.IntN(25))
}

// list returns nil (absent), an empty list, or a few entries.
func (g gen) list(absentOdds int) []string {
	if g.r.IntN(absentOdds) == 0 {
		return nil
	}
	out := []string{}
	for range g.r.IntN(5) {
		out = append(out, g.entry())
	}
	return out
}

func (g gen) profile(inherit string) config.Profile {
	return config.Profile{Inherit: inherit, Allow: g.list(2), Deny: g.list(2)}
}

// refMatch is a deliberately naive reading of the list syntax, written
// independently of the compiled matcher.
func refMatch(entries []string, t Tool) bool {
	for _, e := range entries {
		if e == "*" || e == t.Name || (t.Toolset != "" && e == t.Toolset) || e == config.ClassPrefix+string(t.Class) {
			return true
		}
		if ok, _ := path.Match(e, t.Name); ok {
			return true
		}
		if ok, _ := path.Match(e, t.Toolset); ok && t.Toolset != "" {
			return true
		}
	}
	return false
}

func refKeeps(allow, deny []string, t Tool) bool {
	return !refMatch(deny, t) && (allow == nil || refMatch(allow, t))
}

// refVisible is the specification of the whole chain as one predicate.
func refVisible(cfg *config.Config, ctx Caller, t Tool) bool {
	if !t.Class.Valid() || t.Toolset == "" || t.Name == "" {
		return false
	}
	if !refKeeps(cfg.Operator.Allow, cfg.Operator.Deny, t) {
		return false
	}
	for _, p := range cfg.InheritChain(ctx.Profile) {
		if !refKeeps(cfg.Profiles[p].Allow, cfg.Profiles[p].Deny, t) {
			return false
		}
	}
	if c, ok := cfg.Transport[ctx.TransportKey()]; ok {
		for _, p := range cfg.InheritChain(c.Profile) {
			if !refKeeps(cfg.Profiles[p].Allow, cfg.Profiles[p].Deny, t) {
				return false
			}
		}
	}
	switch t.Scope {
	case "", manifest.AgentScope:
		return true
	case manifest.CLIScope:
		return ctx.Transport == TransportCLI
	}
	return false
}

func visibleSet(d Decision) map[string]bool {
	out := map[string]bool{}
	for _, t := range d.Visible {
		out[t.Name] = true
	}
	return out
}

// TestPropertyInheritanceNarrows checks, over random policies and tool
// sets, that a child profile never sees more than its parent, sees exactly
// what both its parent and its own lists allow, that no unclassified tool is
// ever visible, that Check agrees with Evaluate, and that the chain matches
// an independent reference predicate.
func TestPropertyInheritanceNarrows(t *testing.T) {
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	transports := []Caller{
		{Transport: TransportStdio},
		{Transport: TransportHTTP, Loopback: true},
		{Transport: TransportHTTP},
		{Transport: TransportCLI},
	}
	for i := range iterations {
		seed := uint64(i)
		g := gen{rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
		grandparent := ""
		cfg := &config.Config{
			Operator: config.OperatorLists{Allow: g.list(3), Deny: g.list(2)},
			Profiles: map[string]config.Profile{},
		}
		if g.r.IntN(3) == 0 {
			grandparent = "grandparent"
			cfg.Profiles[grandparent] = g.profile("")
		}
		parent := g.profile(grandparent)
		child := g.profile("parent")
		alone := child
		alone.Inherit = ""
		cfg.Profiles["parent"] = parent
		cfg.Profiles["child"] = child
		cfg.Profiles["child_alone"] = alone
		if g.r.IntN(2) == 0 {
			cfg.Profiles["cap"] = g.profile("")
			key := config.Transports[g.r.IntN(len(config.Transports))]
			cfg.Transport = map[string]config.Ceiling{key: {Profile: "cap"}}
		}
		c, err := NewChain(cfg)
		if err != nil {
			t.Fatalf("seed %d: NewChain: %v", seed, err)
		}
		cands := g.tools()
		base := transports[g.r.IntN(len(transports))]

		ctxOf := func(p string) Caller { ctx := base; ctx.Profile = p; return ctx }
		dParent := c.Evaluate(ctxOf("parent"), cands)
		dChild := c.Evaluate(ctxOf("child"), cands)
		dAlone := c.Evaluate(ctxOf("child_alone"), cands)
		vp, vc, va := visibleSet(dParent), visibleSet(dChild), visibleSet(dAlone)

		for _, tool := range cands {
			if vc[tool.Name] && !vp[tool.Name] {
				t.Fatalf("seed %d: child sees %s, parent does not\ncfg %+v", seed, tool.Name, cfg)
			}
			if vc[tool.Name] != (vp[tool.Name] && va[tool.Name]) {
				t.Fatalf("seed %d: child visibility of %s is %v, parent∧own is %v∧%v\ncfg %+v",
					seed, tool.Name, vc[tool.Name], vp[tool.Name], va[tool.Name], cfg)
			}
		}
		for _, d := range []Decision{dParent, dChild, dAlone} {
			checkDecision(t, seed, c, cfg, cands, d)
		}
	}
}

// checkDecision verifies one decision against Check, the reference
// predicate and its own bookkeeping.
func checkDecision(t *testing.T, seed uint64, c *Chain, cfg *config.Config, cands []Tool, d Decision) {
	t.Helper()
	vis := visibleSet(d)
	for _, tool := range cands {
		if vis[tool.Name] && (!tool.Class.Valid() || tool.Toolset == "") {
			t.Fatalf("seed %d: unclassified tool %+v is visible", seed, tool)
		}
		ok, layer := c.Check(d.Caller, tool)
		if ok != vis[tool.Name] || layer != d.Withheld[tool.Name] {
			t.Fatalf("seed %d: Check(%s) = %v, %q; Evaluate: visible %v, withheld by %q",
				seed, tool.Name, ok, layer, vis[tool.Name], d.Withheld[tool.Name])
		}
		if want := refVisible(cfg, d.Caller, tool); want != ok {
			t.Fatalf("seed %d: %+v for %+v: chain says %v (layer %q), reference says %v\ncfg %+v",
				seed, tool, d.Caller, ok, layer, want, cfg)
		}
		if wl, _ := c.Why(d.Caller, tool); wl != layer {
			t.Fatalf("seed %d: Why(%s) layer %q, Check layer %q", seed, tool.Name, wl, layer)
		}
	}
	if len(d.Visible)+len(d.Withheld) != len(cands) {
		t.Fatalf("seed %d: %d visible + %d withheld != %d candidates", seed, len(d.Visible), len(d.Withheld), len(cands))
	}
	remaining, excluded := len(cands), 0
	for _, f := range d.Filtered {
		if len(f.Excluded) == 0 || !slices.IsSorted(f.Excluded) {
			t.Fatalf("seed %d: filtered entry %+v is empty or unsorted", seed, f)
		}
		remaining -= len(f.Excluded)
		excluded += len(f.Excluded)
		if f.Remaining != remaining {
			t.Fatalf("seed %d: %s remaining %d, want %d", seed, f.By, f.Remaining, remaining)
		}
	}
	if excluded != len(d.Withheld) || len(FilteredEvents(d)) != len(d.Filtered) {
		t.Fatalf("seed %d: filtered entries do not add up to the withheld tools", seed)
	}
}
