package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// A tool that runs other tools' operations (run_commands, a batch edit) must
// not be a way around the rules that hold for those tools. The host, not
// the plugin, decides: before a call goes to the plugin, every operation it
// carries out for another tool is checked as a direct call of that tool by
// the same caller, and one refusal refuses the whole call, so nothing runs.
//
//   - performs (manifest.Tool.Performs): tools whose work the tool always
//     does. They are held to the policy and the safety class (confirm).
//     The gate is not asked: it keeps agents' tool lists short and says
//     nothing about what a caller may do.
//   - dispatch (manifest.Tool.Dispatch): operations the arguments name, one
//     by one. Each is a call of the tool it names, so it is held to the
//     policy, the gate and the safety class, and the tools it performs in
//     turn to the policy and class. The list goes to the plugin with each
//     name replaced by the exposed name the host checked, so the plugin runs
//     what was checked and nothing it resolved on its own.

// refusal is a refused inner operation: the error the caller gets and what
// the event records.
type refusal struct {
	err   *sdk.Error
	index int    // position in the dispatch list; -1 for performs
	name  string // the operation as the caller wrote it
	tool  string // the exposed tool it resolved to; "" when none
	rule  string // "policy", "gate", "confirm", "resolve" or "nesting"
}

// checkInner runs the checks above for one call. It returns the refusal,
// or nil after rewriting a's dispatch list (a.in and a.raw) to exposed
// names.
func (s *Server) checkInner(caller exposure.Caller, e *toolEntry, a *callArgs) *refusal {
	if r := s.checkPerforms(caller, e, e, a, -1, ""); r != nil {
		return r
	}
	if e.dispatchArg == "" {
		return nil
	}
	list, _ := a.in[e.dispatchArg].([]any)
	changed := false
	for i, item := range list {
		op, ok := item.(map[string]any)
		if !ok {
			return &refusal{index: i, rule: "resolve", err: &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("%s[%d] is not an object; nothing ran", e.dispatchArg, i),
				Hint:    fmt.Sprintf("pass each entry as {%q: \"…\", …}", e.dispatchField)}}
		}
		name, _ := op[e.dispatchField].(string)
		inner, r := s.resolveInner(e, i, name)
		if r != nil {
			return r
		}
		if err := s.policy.Authorize(caller, inner.ref); err != nil {
			return innerRefusal(e, i, name, inner, "policy", err)
		}
		if !s.gate.Enabled(inner.ref.Toolset) {
			return innerRefusal(e, i, name, inner, "gate", s.gate.DisabledError(inner.ref.Toolset, inner.ref.Name))
		}
		if r := confirmed(e, i, name, inner, a); r != nil {
			return r
		}
		if r := s.checkPerforms(caller, e, inner, a, i, name); r != nil {
			return r
		}
		if op[e.dispatchField] != inner.ref.Name {
			op[e.dispatchField] = inner.ref.Name
			changed = true
		}
	}
	if changed {
		raw, err := json.Marshal(a.in)
		if err != nil {
			return &refusal{index: -1, rule: "resolve", err: &sdk.Error{Code: sdk.CodeInternalError,
				Message: fmt.Sprintf("cannot encode the checked %s: %v; nothing ran", e.dispatchArg, err), Hint: "report this bug"}}
		}
		a.raw = raw
	}
	return nil
}

// checkPerforms holds a call of e to the policy and safety class of the
// tools doer performs. index and name locate doer in e's dispatch list
// (-1, "": doer is e itself). A performed tool that is not installed is skipped: no
// policy entry can name it (the policy must name installed tools), and the
// calling tool's own class covers what it does.
func (s *Server) checkPerforms(caller exposure.Caller, e, doer *toolEntry, a *callArgs, index int, name string) *refusal {
	for _, p := range doer.performs {
		t, ok := s.reg.lookup(p)
		if !ok || t == doer {
			continue
		}
		if err := s.policy.Authorize(caller, t.ref); err != nil {
			return performsRefusal(e, doer, index, name, t, "policy", err)
		}
		if t.ref.Class == manifest.Destructive && !a.confirm && !a.dryRun {
			return performsRefusal(e, doer, index, name, t, "confirm", confirmError(e, t))
		}
	}
	return nil
}

// resolveInner finds the tool an operation names, as the composite toolset
// reads names: an exposed tool name (godot_scene_edit_delete_node), the
// addon's command (cmd_delete_node, cmd_read_script) or the bare action (delete_node), also
// with a toolset prefix (batch_set_property). A name that reaches no
// plugin tool, or more than one, is refused: the host cannot check what
// it cannot name.
func (s *Server) resolveInner(e *toolEntry, i int, name string) (*toolEntry, *refusal) {
	n := strings.TrimSpace(name)
	fail := func(rule string, se *sdk.Error) (*toolEntry, *refusal) {
		return nil, &refusal{index: i, name: name, rule: rule, err: se}
	}
	found := func(t *toolEntry) (*toolEntry, *refusal) {
		if t.core != nil {
			return fail("resolve", &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("%s[%d] (%q) names the host's own tool %s, which %s cannot run; nothing ran", e.dispatchArg, i, name, t.ref.Name, e.ref.Name),
				Hint:    fmt.Sprintf("call %s directly, before or after this call", t.ref.Name)})
		}
		if t.dispatchArg != "" {
			return fail("nesting", &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("%s[%d] (%q) is %s, which cannot nest; nothing ran", e.dispatchArg, i, name, t.ref.Name),
				Hint:    "flatten the list: put its commands in this one"})
		}
		return t, nil
	}
	if n == "" {
		return fail("resolve", &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("%s[%d] has no %s; nothing ran", e.dispatchArg, i, e.dispatchField),
			Hint:    fmt.Sprintf("name a tool in %q, such as \"create_node\" or \"godot_scene_edit_create_node\"", e.dispatchField)})
	}
	if t, ok := s.reg.lookup(n); ok {
		return found(t)
	}
	if strings.HasPrefix(n, "cmd_") {
		// The addon's own name for a tool's work: its names are not
		// always "cmd_" + the tool's (cmd_read_script is
		// godot_scripts_read), so editorcmd's map comes first.
		var hits []*toolEntry
		for _, name := range editorcmd.CommandTools(n) {
			if t, ok := s.reg.lookup(name); ok {
				hits = append(hits, t)
			}
		}
		if len(hits) == 1 {
			return found(hits[0])
		}
	}
	bare := strings.TrimPrefix(strings.TrimPrefix(n, "cmd_"), "godot_")
	if t, ok := s.reg.lookup("godot_" + bare); ok {
		return found(t)
	}
	switch matches := s.reg.byBare(bare); len(matches) {
	case 1:
		return found(matches[0])
	case 0:
		return fail("resolve", &sdk.Error{Code: sdk.CodeNotFound,
			Message: fmt.Sprintf("%s[%d] (%q) names no installed tool, so the host cannot check it; nothing ran", e.dispatchArg, i, name),
			Hint:    "name the tool that does it, such as \"create_node\" or \"godot_scene_edit_create_node\" (tools/list shows them), or call that tool directly"})
	default:
		names := make([]string, len(matches))
		for j, m := range matches {
			names[j] = m.ref.Name
		}
		return fail("resolve", &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("%s[%d] (%q) could be any of %s; nothing ran", e.dispatchArg, i, name, strings.Join(names, ", ")),
			Hint:    "name the tool in full, such as " + names[0]})
	}
}

// confirmed applies the safety class of a dispatched tool: a destructive
// operation's real run needs the outer call's confirm, as the tool's own
// call would need its confirm. A dry run needs none.
func confirmed(e *toolEntry, i int, name string, inner *toolEntry, a *callArgs) *refusal {
	if inner.ref.Class != manifest.Destructive || a.confirm || a.dryRun {
		return nil
	}
	return innerRefusal(e, i, name, inner, "confirm", confirmError(e, inner))
}

func confirmError(e, inner *toolEntry) *sdk.Error {
	return &sdk.Error{
		Code:     sdk.CodePreconditionFailed,
		Required: sdk.RequiredConfirm,
		Toolset:  e.ref.Toolset,
		Message:  fmt.Sprintf("%s deletes or overwrites data and %s was called without confirm=true", inner.ref.Name, e.ref.Name),
		Hint:     fmt.Sprintf(`call %s again with "confirm": true once the user has agreed, or with "dry_run": true to preview what it would change`, e.ref.Name),
	}
}

// innerRefusal words the refusal of dispatched operation i: which command,
// which tool it is, the rule's own error, and that nothing ran. The code,
// required and hint are the rule's, so the fix is the one a direct call
// would get.
func innerRefusal(e *toolEntry, i int, name string, inner *toolEntry, rule string, se *sdk.Error) *refusal {
	what := fmt.Sprintf("%s[%d] (%q, the tool %s)", e.dispatchArg, i, name, inner.ref.Name)
	if name == inner.ref.Name {
		what = fmt.Sprintf("%s[%d] (%s)", e.dispatchArg, i, name)
	}
	out := *se
	out.Toolset = e.ref.Toolset
	out.Message = fmt.Sprintf("%s is refused, so %s ran nothing: %s", what, e.ref.Name, se.Message)
	if rule != "confirm" {
		out.Hint = se.Hint + fmt.Sprintf("; or leave %s out of the list", what)
	}
	return &refusal{err: &out, index: i, name: name, tool: inner.ref.Name, rule: rule}
}

// performsRefusal words the refusal of a call of e because doer (e, or
// one of e's dispatched operations) does t's work.
func performsRefusal(e, doer *toolEntry, index int, name string, t *toolEntry, rule string, se *sdk.Error) *refusal {
	out := *se
	out.Toolset = e.ref.Toolset
	out.Message = fmt.Sprintf("%s does the work of %s, so it is held to that tool's rules; nothing ran: %s", e.ref.Name, t.ref.Name, se.Message)
	if index >= 0 {
		out.Message = fmt.Sprintf("%s[%d] (%q) is %s, which does the work of %s, so %s is held to that tool's rules and ran nothing: %s",
			e.dispatchArg, index, name, doer.ref.Name, t.ref.Name, e.ref.Name, se.Message)
	}
	return &refusal{err: &out, index: index, name: name, tool: t.ref.Name, rule: rule}
}

// CallToolsets returns the toolsets a call of tool with args uses: the
// tool's own, then those of the operations it dispatches that resolve, in
// order and without repeats. `godot-mcp call` enables them for its one
// call, as it enables the tool's own toolset, so an operator's list is not
// refused by the gate of a host that started with nothing enabled. The
// other checks still apply to every operation.
func (s *Server) CallToolsets(tool string, args map[string]any) []string {
	e, ok := s.reg.lookup(tool)
	if !ok {
		return nil
	}
	out := []string{e.ref.Toolset}
	if e.dispatchArg == "" {
		return out
	}
	list, _ := args[e.dispatchArg].([]any)
	for i, item := range list {
		op, _ := item.(map[string]any)
		name, _ := op[e.dispatchField].(string)
		if inner, r := s.resolveInner(e, i, name); r == nil && !slices.Contains(out, inner.ref.Toolset) {
			out = append(out, inner.ref.Toolset)
		}
	}
	return out
}
