package nodeedit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Connect adds the connection of signal of the node at from to method of
// the node at to, as the editor saves it. Either end may be a node of an
// instanced scene (connected by its path through the instance). A
// connection the scene has is answered (already) before any check: it is
// valid as saved, even when its script cannot be read here. Otherwise the
// signal must be the source's (its class's or its script's) and the
// method the target's, as the addon checks them.
func (s *Scene) Connect(from, signal, to, method string) (already bool, err error) {
	src, dst := NormalizePath(from), NormalizePath(to)
	for _, o := range s.Doc.Connections() {
		if o.Signal == signal && o.Method == method && NormalizePath(o.From) == src && NormalizePath(o.To) == dst {
			return true, nil
		}
	}
	c, err := s.resolveConnection(from, signal, to, method)
	if err != nil {
		return false, err
	}
	if err := s.Doc.AddConnection(c); err != nil {
		return false, EditError(err, "node_path")
	}
	s.Edited = true
	return false, nil
}

// resolveConnection checks both nodes, the signal (the source's class or
// script) and the method (the target's script or class), as the addon
// does.
func (s *Scene) resolveConnection(from, signal, to, method string) (godot.Connection, error) {
	var c godot.Connection
	srcSec, srcTN, err := s.Lookup(from)
	if err != nil {
		return c, err
	}
	dstSec, dstTN, err := s.Lookup(to)
	if err != nil {
		return c, err
	}
	cdb := s.db
	srcClass, srcScript, srcPath := s.classAndScript(srcSec, srcTN)
	if _, ok := cdb.Signal(srcClass, signal); !ok && (srcScript == nil || !srcScript.Signals[signal]) {
		var names []string
		for _, sg := range cdb.Signals(srcClass) {
			names = append(names, sg.Name)
		}
		if srcScript != nil {
			for n := range srcScript.Signals {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		if len(names) > 8 {
			names = names[:8]
		}
		hint := "available: " + strings.Join(names, ", ")
		// The Godot 4 name of a Godot 3 signal (text_entered is
		// text_submitted), else the closest of the class's signals.
		if h := cdb.SignalHint(srcClass, signal); h != "" {
			hint = h + "; " + hint
		}
		return c, Invalid("signal_name", hint, "'%s' (%s) has no signal '%s'.", srcPath, srcClass, signal)
	}
	// A node connected to itself (common: a script handling its own
	// signal) has its script read and its class found once.
	dstClass, dstScript, dstPath := srcClass, srcScript, srcPath
	if NormalizePath(to) != NormalizePath(from) {
		dstClass, dstScript, dstPath = s.classAndScript(dstSec, dstTN)
	}
	_, builtin := cdb.Method(dstClass, method)
	if !builtin && (dstScript == nil || !dstScript.Funcs[method]) {
		hint := "attach a script that defines func " + method + "() to the target first (godot_scene_edit_attach_script)"
		if dstScript != nil {
			var fs []string
			for f := range dstScript.Funcs {
				fs = append(fs, f)
			}
			slices.Sort(fs)
			hint = fmt.Sprintf("add func %s() to %s, or use one of: %s", method, dstScript.Path, strings.Join(fs, ", "))
		}
		// A Godot 3 name of a method the class has under its Godot 4 name
		// (update is queue_redraw) says so first.
		if h := cdb.MethodHint(dstClass, method); h != "" {
			hint = h + "; " + hint
		}
		return c, Invalid("method_name", hint, "'%s' has no method '%s'.", dstPath, method)
	}
	return godot.Connection{Signal: signal, From: srcPath, To: dstPath, Method: method}, nil
}

// Disconnect removes the connection of signal of the node at from to
// method of the node at to; INVALID_ARGUMENT (Required "signal_name")
// when the scene has no such connection.
func (s *Scene) Disconnect(from, signal, to, method string) (godot.Connection, error) {
	c := godot.Connection{Signal: signal, From: NormalizePath(from), To: NormalizePath(to), Method: method}
	if !s.Doc.RemoveConnection(c) {
		return c, Invalid("signal_name", "godot_scene_edit_list_signal_connections lists the node's connections",
			"'%s' of '%s' is not connected to %s of '%s'", c.Signal, c.From, c.Method, c.To)
	}
	s.Edited = true
	return c, nil
}
