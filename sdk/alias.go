package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Argument aliases: a second spelling of an argument, so that prompts
// written for another Godot MCP server (the reference's `node_type` where a
// tool says `type`, `resource_path` where it says `path`) work unchanged.
// A top-level field of the arguments struct declares them with the `alias`
// tag, a comma-separated list:
//
//	Type string `json:"node_type" alias:"type" jsonschema:"class of the nodes"`
//
// The json name stays the main spelling. The input schema lists each alias
// beside it with the same type and a description that names the main one,
// so an agent sees both and knows which to prefer. A required main argument
// is no longer required in the schema (either spelling satisfies it); the
// SDK checks that one was given. Before decoding, the SDK renames an alias
// to its main name; giving two spellings with different values is refused.

// argAlias is one main argument with its other spellings.
type argAlias struct {
	main     string
	aliases  []string
	required bool
}

// aliasFields reads the alias tags of an arguments type's top-level fields.
func aliasFields(t reflect.Type) ([]argAlias, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, nil
	}
	var out []argAlias
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		names[name] = true
		tag, ok := f.Tag.Lookup("alias")
		if !ok {
			continue
		}
		if !f.IsExported() || name == "-" {
			return nil, fmt.Errorf("field %s: an alias needs an exported field with a json name", f.Name)
		}
		a := argAlias{main: name, required: !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero")}
		for _, s := range strings.Split(tag, ",") {
			if s = strings.TrimSpace(s); s == "" || s == name {
				return nil, fmt.Errorf("field %s: alias tag %q names an empty alias or the field itself", f.Name, tag)
			}
			a.aliases = append(a.aliases, s)
		}
		out = append(out, a)
	}
	for _, a := range out {
		for _, s := range a.aliases {
			if names[s] {
				return nil, fmt.Errorf("alias %q of %q is also the name of another argument", s, a.main)
			}
			names[s] = true
		}
	}
	return out, nil
}

// addAliases puts each alias in the schema beside its main argument.
func addAliases(s *jsonschema.Schema, aliases []argAlias) {
	for _, a := range aliases {
		p := s.Properties[a.main]
		if p == nil {
			continue
		}
		for _, name := range a.aliases {
			cp := *p
			cp.Description = fmt.Sprintf("the same as %s (another spelling, accepted for compatibility; prefer %s)", a.main, a.main)
			s.Properties[name] = &cp
			if !slices.Contains(s.PropertyOrder, name) && len(s.PropertyOrder) > 0 {
				s.PropertyOrder = append(s.PropertyOrder, name)
			}
		}
		if a.required {
			s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == a.main })
			p.Description = strings.TrimSpace(p.Description + " (required; also accepted as " + strings.Join(a.aliases, ", ") + ")")
		}
	}
}

// applyAliases rewrites the arguments so every alias carries its main name,
// and checks that a required argument was given in some spelling.
func applyAliases(raw []byte, aliases []argAlias) ([]byte, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = []byte("{}")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw, nil // decodeArgs reports it
	}
	changed := false
	for _, a := range aliases {
		v, have := m[a.main]
		given := a.main
		for _, name := range a.aliases {
			av, ok := m[name]
			if !ok {
				continue
			}
			if have && !bytes.Equal(bytes.TrimSpace(av), bytes.TrimSpace(v)) {
				return nil, &Error{Code: CodeInvalidArgument,
					Message: fmt.Sprintf("%s and %s are two spellings of one argument and were given different values", given, name),
					Hint:    "pass only " + a.main}
			}
			v, have, given = av, true, name
			delete(m, name)
			changed = true
		}
		if have {
			m[a.main] = v
		} else if a.required {
			return nil, &Error{Code: CodeInvalidArgument, Required: a.main,
				Message: fmt.Sprintf("missing required argument %s (also accepted as %s)", a.main, strings.Join(a.aliases, ", ")),
				Hint:    "pass " + a.main}
		}
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(m)
}

// ResolveAliases rewrites JSON arguments for the arguments type In: every
// alias spelling becomes its main name (the field's json name), and a
// required argument given in no spelling is INVALID_ARGUMENT. Tools built
// with [NewTool] get this for free; the host calls it for its own tools,
// whose schemas come from [SchemaFor] too.
func ResolveAliases[In any](raw []byte) ([]byte, error) {
	aliases, err := aliasFields(reflect.TypeFor[In]())
	if err != nil || len(aliases) == 0 {
		return raw, err
	}
	return applyAliases(raw, aliases)
}
