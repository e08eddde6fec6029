package exposure

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

// ValidateNames checks that every entry of the operator and profile lists
// names something the catalog offers: a toolset, an exposed tool name, a
// safety class, or a pattern that matches at least one of them. The host
// calls it at startup and refuses to start on error, because a misspelt name
// in a deny list would silently deny nothing. Each error names the file, the
// key and the closest known name.
func (c *Chain) ValidateNames(known Known) error {
	k := KnownTools(nil)
	k.Toolsets = appendNew(k.Toolsets, known.Toolsets...)
	k.Tools = appendNew(k.Tools, known.Tools...)
	set := map[string]bool{}
	for _, n := range k.Toolsets {
		set[n] = true
	}
	for _, n := range k.Tools {
		set[n] = true
	}
	all := append(slices.Clone(k.Toolsets), k.Tools...)

	var errs []error
	check := func(key string, entries []string) {
		for i, e := range entries {
			where := fmt.Sprintf("%s: %s[%d]", cfgName(c.cfg), key, i)
			if err := config.CheckEntry(e); err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", where, err))
				continue
			}
			switch {
			case e == "*", strings.HasPrefix(e, config.ClassPrefix):
			case strings.Contains(e, "*"):
				if !slices.ContainsFunc(all, func(n string) bool { ok, _ := path.Match(e, n); return ok }) {
					errs = append(errs, fmt.Errorf("%s: pattern %q matches no installed toolset or tool; fix the pattern or remove it (installed toolsets: %s)",
						where, e, strings.Join(k.Toolsets, ", ")))
				}
			case !set[e]:
				hint := ""
				if s := suggest.Closest(e, all); s != "" {
					hint = fmt.Sprintf("did you mean %q? ", s)
				}
				errs = append(errs, fmt.Errorf("%s: %q names no installed toolset or tool; %sfix the name, install the toolset, or remove the entry (installed toolsets: %s)",
					where, e, hint, strings.Join(k.Toolsets, ", ")))
			}
		}
	}
	check("operator.allow", c.cfg.Operator.Allow)
	check("operator.deny", c.cfg.Operator.Deny)
	names := make([]string, 0, len(c.cfg.Profiles))
	for n := range c.cfg.Profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		check("profiles."+n+".allow", c.cfg.Profiles[n].Allow)
		check("profiles."+n+".deny", c.cfg.Profiles[n].Deny)
	}
	return errors.Join(errs...)
}

func appendNew(dst []string, src ...string) []string {
	for _, s := range src {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}
