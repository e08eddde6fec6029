package sdk

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// checkArgsType reports, all at once, what makes an arguments type a poor
// or impossible tool input, naming each field by its Go path and type:
//
//   - a field without a `json` tag: its property would be named after the
//     Go field ("MaxDepth"), not in the snake_case agents expect;
//   - a field without a `jsonschema` tag: agents read the description to
//     fill the argument in, and nothing else tells them what it means;
//   - a type with no JSON form (channels, functions, complex numbers,
//     unsafe pointers, maps with keys that are not strings).
//
// NewTool runs it before deriving the schema, so that the author reads
// "field Filter (func(string) bool)" instead of the schema library's
// internal error.
func checkArgsType(t reflect.Type) error {
	var errs []error
	walkArgs(t, "", map[reflect.Type]bool{}, &errs, true)
	return errors.Join(errs...)
}

func walkArgs(t reflect.Type, path string, seen map[reflect.Type]bool, errs *[]error, top bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	where := func() string {
		if path == "" {
			return "the arguments type " + t.String()
		}
		return fmt.Sprintf("field %s (%s)", path, t)
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		*errs = append(*errs, fmt.Errorf("%s has no JSON form: use a string, number, bool, struct, slice or map with string keys", where()))
		return
	case reflect.Map:
		if k := t.Key().Kind(); k != reflect.String && !(k >= reflect.Int && k <= reflect.Uint64) {
			*errs = append(*errs, fmt.Errorf("%s: a map key must be a string (or an integer) to become a JSON object key, not %s", where(), t.Key()))
			return
		}
		walkArgs(t.Elem(), path+"[key]", seen, errs, false)
		return
	case reflect.Slice, reflect.Array:
		walkArgs(t.Elem(), path+"[]", seen, errs, false)
		return
	case reflect.Struct:
	default:
		return
	}
	if seen[t] {
		return
	}
	seen[t] = true
	if !top && t.PkgPath() != "" && !strings.Contains(t.PkgPath(), "/") && t.PkgPath() != "main" {
		return // a standard-library type (time.Time and friends) has its own JSON form
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		jsonTag, hasJSON := f.Tag.Lookup("json")
		name, _, _ := strings.Cut(jsonTag, ",")
		if name == "-" {
			continue
		}
		fpath := f.Name
		if path != "" {
			fpath = path + "." + f.Name
		}
		if f.Anonymous && !hasJSON {
			walkArgs(f.Type, path, seen, errs, false)
			continue
		}
		if !hasJSON || name == "" {
			*errs = append(*errs, fmt.Errorf("field %s (%s) has no json tag: add `json:\"%s\"` (append \",omitempty\" if it is optional)", fpath, f.Type, snake(f.Name)))
		}
		if _, ok := f.Tag.Lookup("jsonschema"); !ok {
			*errs = append(*errs, fmt.Errorf("field %s (%s) has no jsonschema tag: add `jsonschema:\"what it is, in words an agent understands\"`; agents read it to fill the argument in", fpath, f.Type))
		}
		walkArgs(f.Type, fpath, seen, errs, false)
	}
}

// snake turns a Go field name into the snake_case property name a json
// tag should give it: MaxDepth → max_depth, NodeID → node_id.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
