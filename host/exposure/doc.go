// Package exposure decides which tools a caller may see and call.
//
// A Chain is an ordered list of layers. Each layer looks at one candidate
// tool and the caller's Caller and says whether to keep it; a layer can
// only remove tools, never add them back. The host builds one chain from the
// policy config and asks it the same question for tools/list and for
// tools/call, so what a caller sees and what it can call never diverge:
//
// NewChain builds it from a config (ValidateNames checks, at startup, that
// the config names installed things); Evaluate answers tools/list (and
// EmitFiltered reports what each layer removed); Authorize answers
// tools/call with nil or an *sdk.Error TOOL_NOT_EXPOSED naming the layer.
// ExampleChain shows the two side by side.
//
// # The layers, in order
//
//  1. classification: a tool without a valid safety class, a toolset or a
//     name never passes. Metadata a plugin forgot is a reason to hide the
//     tool, not to guess (fail closed).
//  2. operator: the [operator] allow and deny lists, for every caller.
//  3. profile: the caller's profile and every profile it inherits. A tool
//     passes only if each profile in the inherit chain lets it through, so a
//     child can only narrow its parent: allow lists intersect, deny lists
//     unite. An undefined profile withholds everything.
//  4. transport: the ceiling profile configured for the caller's transport
//     (stdio, http_loopback, http_remote), applied like a second profile.
//     An unknown transport is treated as http_remote.
//  5. scope: tools with scope "cli" exist for the operator's `godot-mcp call`
//     and are withheld from every other transport.
//
// Deny wins over allow. An absent allow list places no restriction; a present
// one hides what it does not name, so an empty one hides everything (see
// package config for the list syntax).
//
// # Guarantees
//
// The chain evaluates layers tool by tool and only ever narrows the set it
// was given: a layer has no way to return a tool it was not asked about. A
// layer that panics withholds the tool it panicked on (deny on error).
// Check, Authorize, Why and Evaluate run the same code per tool, so a call
// is refused exactly when the list withholds the tool.
//
// # Sub-agents
//
// A sub-agent gets its own token bound to a profile that inherits the
// spawning agent's profile. Because inheritance only narrows, the sub-agent
// never sees more than its parent, whatever its own lists say.
//
// # Enabling toolsets
//
// Enabling a toolset changes the server-global enabled set, so a caller
// must not use godot_enable_toolset to switch on a toolset it would get
// nothing from. Widens implements the rule the gate applies; see its doc.
package exposure
