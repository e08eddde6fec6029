package main

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// themeItemsJSON is each Control's (and Window's) theme items, as the
// engine lists them: the theme_override_* properties an instance of the
// class has (its own and its bases'), from the Godot 4.6 web runtime.
// TestThemeItemsMatchTheEngine regenerates it with -update.
//
//go:embed themeitems.json
var themeItemsJSON []byte

// themeTable is the decoded themeitems.json.
type themeTable struct {
	Engine  string                         `json:"engine"`
	Classes map[string]map[string][]string `json:"classes"` // class -> group (colors, …) -> names
}

var themeItems = sync.OnceValue(func() themeTable {
	var t themeTable
	if err := json.Unmarshal(themeItemsJSON, &t); err != nil {
		panic("theme_ui: themeitems.json: " + err.Error())
	}
	return t
})

// godot3Groups maps Godot 3's override prefixes ("custom_colors/…") to
// the Godot 4 item groups: the word in a Theme's keys ("Button/colors/…")
// and in a Control's overrides ("theme_override_colors/…").
var godot3Groups = map[string]string{
	"custom_colors": "colors", "custom_constants": "constants", "custom_fonts": "fonts",
	"custom_styles": "styles", "custom_icons": "icons", "custom_font_sizes": "font_sizes",
}

// itemsOf returns the theme items of class in group, walking up to the
// nearest class the table knows (a class the engine cannot instantiate
// lists none of its own); ok is false when no class on the way is a
// Control or Window.
func itemsOf(class, group string) (names []string, known string, ok bool) {
	db := nodeedit.DB()
	t := themeItems()
	for _, c := range db.Chain(class) {
		if items, has := t.Classes[c]; has && (len(flatten(items)) > 0 || c == "Control" || c == "Window") {
			return items[group], c, true
		}
	}
	return nil, "", db.Inherits(class, "Control") || db.Inherits(class, "Window")
}

func flatten(m map[string][]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v...)
	}
	return out
}

// splitName takes a name as an agent may give it: "font_color",
// "theme_override_colors/font_color" or Godot 3's "custom_colors/font_color".
// It returns the bare name, and the Godot 3 prefix it mapped ("" if none);
// a prefix of another group is an error for the caller (wrongGroup).
func splitName(name, group string) (bare, godot3, wrongGroup string) {
	prefix, rest, ok := strings.Cut(name, "/")
	if !ok {
		return name, "", ""
	}
	if g, ok := strings.CutPrefix(prefix, "theme_override_"); ok {
		if g != group {
			return rest, "", g
		}
		return rest, "", ""
	}
	if g, ok := godot3Groups[prefix]; ok {
		if g != group {
			return rest, prefix, g
		}
		return rest, prefix, ""
	}
	return name, "", ""
}

// closest returns the item of names nearest to name, or "".
func closest(name string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		if d := distance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	if bestD > len(name)/2+2 {
		return ""
	}
	return best
}

func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(b)]
}
