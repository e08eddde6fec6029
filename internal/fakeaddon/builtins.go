package fakeaddon

import (
	"strconv"
	"strings"
)

// builtins registers the commands every addon answers, with the addon's
// params and result shapes (ADDON-PROTOCOL.md §2.7, §5.3).
func (a *Addon) builtins() {
	a.handlers["cmd_ping"] = func(map[string]any) Reply { return OK(map[string]any{"pong": true}) }
	if !a.opts.NoAddonInfo {
		a.handlers["cmd_get_addon_info"] = func(map[string]any) Reply {
			return OK(map[string]any{
				"addon_version": a.opts.AddonVersion,
				"godot_version": a.opts.GodotVersion,
				"commands":      a.commandNames(),
			})
		}
		a.handlers["cmd_server_hello"] = func(p map[string]any) Reply {
			a.mu.Lock()
			a.serverVer = godotStr(orDefault(p, "version", ""))
			a.mu.Unlock()
			return OK(map[string]any{"received": true})
		}
		a.handlers["cmd_toolsets_update"] = func(p map[string]any) Reply {
			var names []string
			if list, ok := p["enabled"].([]any); ok {
				for _, v := range list {
					if s := godotStr(v); s != "" && v != nil {
						names = append(names, s)
					}
				}
			}
			a.mu.Lock()
			a.toolsets = names
			if a.toolsets == nil {
				a.toolsets = []string{}
			}
			a.pushes++
			a.mu.Unlock()
			return OK(map[string]any{"received": true, "count": len(names)})
		}
	}
	a.handlers["cmd_get_project_info"] = func(map[string]any) Reply {
		return OK(map[string]any{
			"name": "fake", "godot_version": a.opts.GodotVersion, "main_scene": "",
			"project_path": a.opts.ProjectPath, "autoloads": map[string]any{}, "input_actions": []any{},
			"csharp_supported": false, "csharp_project": false,
		})
	}
	a.handlers["cmd_undo"] = func(p map[string]any) Reply { return a.step(p, true) }
	a.handlers["cmd_redo"] = func(p map[string]any) Reply { return a.step(p, false) }
	a.handlers["cmd_list_history"] = func(map[string]any) Reply {
		a.mu.Lock()
		defer a.mu.Unlock()
		recent := a.undo
		if len(recent) > 20 {
			recent = recent[len(recent)-20:]
		}
		current := ""
		if len(a.undo) > 0 {
			current = a.undo[len(a.undo)-1]
		}
		return OK(map[string]any{
			"version": len(a.undo) + len(a.redo), "has_undo": len(a.undo) > 0, "has_redo": len(a.redo) > 0,
			"can_redo": len(a.redo) > 0, "current_action": current, "depth": len(a.undo),
			"recent": append([]string{}, recent...),
		})
	}
}

// step is cmd_undo (undo) or cmd_redo over the fake history.
func (a *Addon) step(p map[string]any, undo bool) Reply {
	count := gdInt(orDefault(p, "count", 1.0))
	if count < 1 {
		return Fail("VALIDATION_ERROR", "count must be >= 1")
	}
	dry := truthy(orDefault(p, "dry_run", false))
	a.mu.Lock()
	defer a.mu.Unlock()
	from, to := &a.undo, &a.redo
	verb, has, next := "undone", "has_undo", "would_undo_next"
	if !undo {
		from, to = &a.redo, &a.undo
		verb, has, next = "redone", "has_redo", "would_redo_next"
	}
	if dry {
		name := ""
		if n := len(*from); n > 0 {
			name = (*from)[n-1]
		}
		return OK(map[string]any{"dry_run": true, "requested": count, has: len(*from) > 0, next: name})
	}
	done, last := 0, ""
	for done < count && len(*from) > 0 {
		n := len(*from)
		last = (*from)[n-1]
		*from = (*from)[:n-1]
		*to = append(*to, last)
		done++
	}
	return OK(map[string]any{verb: done, "requested": count, "last_action": last, "dry_run": false})
}

// gdInt is GDScript's int() of a parsed JSON value.
func gdInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		s := strings.TrimSpace(x)
		end := 0
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && (s[end] == '-' || s[end] == '+')) {
			end++
		}
		n, _ := strconv.Atoi(s[:end])
		return n
	default:
		return 0
	}
}
