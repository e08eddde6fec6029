package exposure

import (
	"fmt"
	"slices"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Chain is an immutable, ordered list of layers. It is safe for concurrent
// use.
type Chain struct {
	layers []Layer
	cfg    *config.Config
}

// NewChain builds the five built-in layers from cfg (nil: config.Defaults).
// It fails when cfg's lists or profiles cannot be compiled; Load has
// normally caught that already. The chain keeps cfg, which must not be
// modified afterwards; to change the policy, load a new config and build a
// new chain.
func NewChain(cfg *config.Config) (*Chain, error) {
	if cfg == nil {
		cfg = config.Defaults()
	}
	op, err := compileLists("operator policy", cfg.Operator.Allow, cfg.Operator.Deny)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfgName(cfg), err)
	}
	profiles, err := compileProfiles(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfgName(cfg), err)
	}
	ceilings := map[string]*profile{}
	for key, c := range cfg.Transport {
		p, ok := profiles[c.Profile]
		if !ok {
			return nil, fmt.Errorf("%s: transport.%s.ceiling: profile %q is not defined; define [profiles.%s]", cfgName(cfg), key, c.Profile, c.Profile)
		}
		ceilings[key] = p
	}
	return &Chain{
		cfg: cfg,
		layers: []Layer{
			classificationLayer{},
			operatorLayer{lists: op},
			profileLayer{profiles: profiles},
			transportLayer{ceilings: ceilings},
			scopeLayer{},
		},
	}, nil
}

// Compose builds a chain from the given layers, in order. The classification
// layer always runs first, whatever the list says, so no composition can
// expose an unclassified tool.
func Compose(layers ...Layer) *Chain {
	return &Chain{
		cfg:    config.Defaults(),
		layers: append([]Layer{classificationLayer{}}, layers...),
	}
}

// Layers returns the layer names in evaluation order.
func (c *Chain) Layers() []string {
	out := make([]string, len(c.layers))
	for i, l := range c.layers {
		out[i] = l.Name()
	}
	return out
}

// Config returns the configuration the chain was built from.
func (c *Chain) Config() *config.Config { return c.cfg }

// Decision is the outcome of one evaluation.
type Decision struct {
	// Caller is the caller the decision was made for.
	Caller Caller
	// Visible are the tools every layer kept, in input order.
	Visible []Tool
	// Withheld maps each withheld tool's name to the first layer that
	// removed it. nil when nothing was withheld.
	Withheld map[string]string
	// Filtered has one entry per layer that removed something, in chain
	// order.
	Filtered []Filtered

	chain *Chain // for the wording of events
}

// layer returns the chain's layer called name, or nil.
func (d Decision) layer(name string) Layer {
	if d.chain == nil {
		return nil
	}
	for _, l := range d.chain.layers {
		if l.Name() == name {
			return l
		}
	}
	return nil
}

// Filtered records what one layer removed.
type Filtered struct {
	By        string   `json:"by"`
	Excluded  []string `json:"excluded"`  // sorted
	Remaining int      `json:"remaining"` // tools left after this layer
}

// keep runs one layer on one tool. A panicking layer withholds the tool:
// when a layer cannot decide, the tool stays hidden.
func keep(l Layer, ctx Caller, t Tool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return l.Keep(ctx, t)
}

// Evaluate runs the chain over tools. Each layer sees only the tools the
// layers before it kept, and its verdict can only shrink that set.
func (c *Chain) Evaluate(ctx Caller, tools []Tool) Decision {
	d := Decision{Caller: ctx, chain: c}
	// removedBy[i] is 1 + the index of the layer that removed tools[i],
	// 0 while the tool is still visible.
	removedBy := make([]int, len(tools))
	remaining := len(tools)
	for li, l := range c.layers {
		var excluded []string
		for i, t := range tools {
			if removedBy[i] != 0 || keep(l, ctx, t) {
				continue
			}
			removedBy[i] = li + 1
			remaining--
			excluded = append(excluded, t.Name)
		}
		if len(excluded) > 0 {
			slices.Sort(excluded)
			d.Filtered = append(d.Filtered, Filtered{By: l.Name(), Excluded: excluded, Remaining: remaining})
		}
	}
	d.Visible = make([]Tool, 0, remaining)
	if remaining < len(tools) {
		d.Withheld = make(map[string]string, len(tools)-remaining)
	}
	for i, t := range tools {
		if removedBy[i] == 0 {
			d.Visible = append(d.Visible, t)
		} else if _, dup := d.Withheld[t.Name]; !dup {
			d.Withheld[t.Name] = c.layers[removedBy[i]-1].Name()
		}
	}
	return d
}

// Check runs the chain over one tool. It agrees with Evaluate: ok is false
// exactly when Evaluate would withhold t, and layer is the layer Evaluate
// would record in Withheld.
func (c *Chain) Check(ctx Caller, t Tool) (ok bool, layer string) {
	for _, l := range c.layers {
		if !keep(l, ctx, t) {
			return false, l.Name()
		}
	}
	return true, ""
}

// Why says which layer withholds t and why, for `policy explain` and error
// messages. Both are "" when t is visible.
func (c *Chain) Why(ctx Caller, t Tool) (layer, reason string) {
	for _, l := range c.layers {
		if keep(l, ctx, t) {
			continue
		}
		if e, ok := l.(Explainer); ok {
			reason = explain(e, ctx, t)
		}
		if reason == "" {
			reason = fmt.Sprintf("withheld by the %s layer", l.Name())
		}
		return l.Name(), reason
	}
	return "", ""
}

func explain(e Explainer, ctx Caller, t Tool) (reason string) {
	defer func() {
		if recover() != nil {
			reason = ""
		}
	}()
	return e.Why(ctx, t)
}

// Authorize is the tools/call form of Check: nil when the caller may call t,
// else an *sdk.Error with code TOOL_NOT_EXPOSED whose Required names the
// layer ("layer:profile"). The server returns it as the call's result and
// never forwards the call to the plugin.
func (c *Chain) Authorize(ctx Caller, t Tool) *sdk.Error {
	if ok, _ := c.Check(ctx, t); ok {
		return nil
	}
	layer, reason := c.Why(ctx, t)
	return &sdk.Error{
		Code:     sdk.CodeToolNotExposed,
		Toolset:  t.Toolset,
		Required: "layer:" + layer,
		Message:  fmt.Sprintf("tool %q is not exposed to this caller: withheld by the %s layer (%s)", t.Name, layer, reason),
		Hint:     "ask the operator to change the policy; `godot-mcp policy explain` shows why",
	}
}

// Widens decides whether enabling a toolset through godot_enable_toolset
// would hand the caller nothing it may use, which is the gate's reason to
// refuse. The enabled set is server-global, so such an enable would only
// change what other callers see.
//
// The rule: the enable is refused (layer != "") when the chain withholds
// every agent-scoped tool of the toolset from the caller, including when the
// toolset has none. layer is then the layer that withheld the most of them
// (the earliest in chain order on a tie). An enable that gives the caller at
// least one tool is allowed; withheld still lists the tools it will not see,
// so the result can say so. Tools the caller will not see remain withheld
// by the chain on every list and call, so an allowed enable never widens the
// caller's surface.
//
// withheld holds the exposed names of the agent-scoped tools the chain
// withholds, sorted; for a toolset without agent-scoped tools it holds the
// cli-scoped ones.
func (c *Chain) Widens(ctx Caller, toolsetTools []Tool) (withheld []string, layer string) {
	count := map[string]int{}
	agent := 0
	var cli []string
	for _, t := range toolsetTools {
		if t.Scope == manifest.CLIScope {
			cli = append(cli, t.Name)
			continue
		}
		agent++
		if ok, l := c.Check(ctx, t); !ok {
			withheld = append(withheld, t.Name)
			count[l]++
		}
	}
	if agent == 0 {
		slices.Sort(cli)
		return cli, LayerScope
	}
	slices.Sort(withheld)
	if len(withheld) < agent {
		return withheld, ""
	}
	best := 0
	for _, l := range c.layers {
		if n := count[l.Name()]; n > best {
			best, layer = n, l.Name()
		}
	}
	return withheld, layer
}

func cfgName(cfg *config.Config) string {
	if cfg.Path == "" {
		return "policy config"
	}
	return cfg.Path
}
