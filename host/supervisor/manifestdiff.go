package supervisor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// manifestDiff compares the manifest the host cataloged with the one the
// running plugin serves (Describe) and names the first difference that
// matters to the host: the toolset's name and Godot constraint, and every
// tool's presence, safety class, scope and schemas. "" means they agree.
// Descriptions and titles are compared too: agents decide by them.
func manifestDiff(want, got *manifest.Manifest) string {
	switch {
	case want.Name != got.Name:
		return fmt.Sprintf("name %q, served %q", want.Name, got.Name)
	case want.Version != got.Version:
		return fmt.Sprintf("version %q, served %q", want.Version, got.Version)
	case want.Godot != got.Godot:
		return fmt.Sprintf("godot constraint %q, served %q", want.Godot, got.Godot)
	case want.Description != got.Description:
		return "the toolset description differs"
	}
	served := map[string]manifest.Tool{}
	for _, t := range got.Tools {
		served[t.Name] = t
	}
	for _, w := range want.Tools {
		g, ok := served[w.Name]
		if !ok {
			return fmt.Sprintf("tool %q is not served", w.Name)
		}
		delete(served, w.Name)
		switch {
		case w.SafetyClass != g.SafetyClass:
			return fmt.Sprintf("tool %q: safety_class %q, served %q", w.Name, w.SafetyClass, g.SafetyClass)
		case w.EffectiveScope() != g.EffectiveScope():
			return fmt.Sprintf("tool %q: scope %q, served %q", w.Name, w.EffectiveScope(), g.EffectiveScope())
		case !sameJSON(w.InputSchema, g.InputSchema):
			return fmt.Sprintf("tool %q: input_schema differs", w.Name)
		case !sameJSON(w.OutputSchema, g.OutputSchema):
			return fmt.Sprintf("tool %q: output_schema differs", w.Name)
		case w.Title != g.Title:
			return fmt.Sprintf("tool %q: title differs", w.Name)
		case w.Description != g.Description:
			return fmt.Sprintf("tool %q: description differs", w.Name)
		}
	}
	for _, t := range got.Tools {
		if _, extra := served[t.Name]; extra {
			return fmt.Sprintf("tool %q is served but not declared", t.Name)
		}
	}
	return ""
}

// sameJSON compares two JSON documents by value, so that formatting (the
// indented --describe output against the compact wire form) does not count.
func sameJSON(a, b json.RawMessage) bool {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	if bytes.Equal(a, []byte("null")) {
		a = nil
	}
	if bytes.Equal(b, []byte("null")) {
		b = nil
	}
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(va, vb)
}
