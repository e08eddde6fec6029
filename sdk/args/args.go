// Package args is the one argument check of godot-mcp: the host runs it
// on every tools/call before anything else sees the arguments, and the SDK
// runs it again in the plugin (a toolset must not trust that it was started
// by a godot-mcp host). Both sides therefore refuse the same inputs with the
// same words.
//
//	in, err := args.Decode(raw)          // one JSON object, no key twice
//	err = args.Check(schema, in)         // "depth must be between 1 and 20, got 99"
//
// Messages are sentences for the person or agent who wrote the call, not the
// validator's trace: they name the argument, say what it must be and what it
// was.
package args

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Decode parses a call's arguments: absent, empty or null mean no
// arguments; anything else must be one JSON object in which no object
// (at any depth) names a key twice. encoding/json keeps the last of two
// equal keys silently, so `"confirm":false,"confirm":true` would read as
// confirmed to the host while another parser might read it as not: the
// call is refused instead.
func Decode(raw []byte) (map[string]any, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return map[string]any{}, nil
	}
	if trimmed[0] != '{' {
		return nil, errors.New("arguments must be a JSON object")
	}
	var in map[string]any
	if err := json.Unmarshal(trimmed, &in); err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if path, key, dup := duplicateKey(trimmed); dup {
		where := "the arguments"
		if path != "" {
			where = path
		}
		return nil, fmt.Errorf("%s name %q more than once; name each argument once", where, key)
	}
	if in == nil {
		in = map[string]any{}
	}
	return in, nil
}

// duplicateKey scans valid JSON for an object that names a key twice and
// returns where (an argument path such as "options.items[]", "" for the
// top level) and which key. It assumes b is valid JSON (Decode has parsed
// it), so it only tracks strings and nesting.
func duplicateKey(b []byte) (path, key string, found bool) {
	type frame struct {
		object bool
		keys   []string // keys seen in this object; arguments have few
		name   string   // the path to this value
		expect bool     // object: the next string is a key
	}
	var stack []frame
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '{', '[':
			name := ""
			if n := len(stack); n > 0 {
				top := &stack[n-1]
				if top.object && len(top.keys) > 0 {
					name = join(top.name, top.keys[len(top.keys)-1])
				} else if !top.object {
					name = top.name + "[]"
				}
			}
			stack = append(stack, frame{object: c == '{', name: name, expect: c == '{'})
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expect = true
			}
		case '"':
			j := i + 1
			escaped := false
			for ; j < len(b); j++ {
				if b[j] == '\\' {
					escaped = true
					j++
					continue
				}
				if b[j] == '"' {
					break
				}
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expect {
				top := &stack[n-1]
				k := string(b[i+1 : j])
				// Escapes and invalid UTF-8 (which decodes to U+FFFD) can
				// make two different spellings one key: compare decoded.
				if escaped || !utf8.ValidString(k) {
					var s string
					if json.Unmarshal(b[i:j+1], &s) == nil {
						k = s
					}
				}
				if slices.Contains(top.keys, k) {
					return top.name, k, true
				}
				top.keys = append(top.keys, k)
				top.expect = false
			}
			i = j
		}
	}
	return "", "", false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Check validates decoded arguments against a resolved input schema. The
// top-level arguments are checked first, with messages in words: unknown
// and missing arguments, wrong types, numbers out of range, values not in
// an enum, lists too short or too long. Anything deeper falls to the
// schema validator, whose message is shortened to name the argument.
//
// Check works out per call whether the validator is needed; a tool checked
// on every call compiles its schema once with Compile instead.
func Check(schema *jsonschema.Resolved, in map[string]any) error {
	return Compile(schema).Check(in)
}

// Checker is an input schema prepared for Check and ApplyDefaults.
type Checker struct {
	resolved *jsonschema.Resolved
	schema   *jsonschema.Schema
	// simple: every keyword of the schema is one checkTop checks itself,
	// so the full validator (the costliest part of a call's argument
	// check) is not needed.
	simple   bool
	defaults map[string]any // decoded default of each top-level property that has one
}

// Compile prepares a resolved input schema for Check; nil checks nothing.
func Compile(schema *jsonschema.Resolved) *Checker {
	c := &Checker{resolved: schema}
	if schema == nil {
		return c
	}
	c.schema = schema.Schema()
	c.simple = simpleSchema(c.schema)
	for name, p := range c.schema.Properties {
		if len(p.Default) > 0 {
			var v any
			if json.Unmarshal(p.Default, &v) == nil {
				if c.defaults == nil {
					c.defaults = map[string]any{}
				}
				c.defaults[name] = v
			}
		}
	}
	return c
}

// Check validates decoded arguments; see the package function Check.
func (c *Checker) Check(in map[string]any) error {
	if c == nil || c.resolved == nil {
		return nil
	}
	if err := checkTop(c.schema, in); err != nil {
		return err
	}
	if c.simple {
		return nil
	}
	if err := c.resolved.Validate(in); err != nil {
		return errors.New(Humanize(err))
	}
	return nil
}

// ApplyDefaults fills in the default of every absent top-level argument
// that has one; it reports whether it added any. Defaults are copied, so
// the arguments of one call never share a value with another's.
func (c *Checker) ApplyDefaults(in map[string]any) (added bool, err error) {
	if c == nil || c.resolved == nil {
		return false, nil
	}
	if !c.simple {
		n := len(in)
		err := c.resolved.ApplyDefaults(&in)
		return len(in) != n, err
	}
	for name, v := range c.defaults {
		if _, ok := in[name]; !ok {
			in[name] = copyJSON(v)
			added = true
		}
	}
	return added, nil
}

func copyJSON(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copyJSON(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = copyJSON(x)
		}
		return out
	}
	return v
}

// simpleSchema reports whether checkTop alone decides s: an object whose
// properties use only the keywords checkValue checks (plus annotations), of
// scalar types or lists of such scalars, and nothing else at the top.
func simpleSchema(s *jsonschema.Schema) bool {
	top, ok := keywords(s)
	if !ok {
		return false
	}
	for k := range top {
		switch k {
		case "type", "properties", "required", "additionalProperties", "description", "title", "$schema", "$id", "examples":
		default:
			return false
		}
	}
	if s.Type != "object" {
		return false
	}
	if ap := s.AdditionalProperties; ap != nil {
		// additionalProperties: false (checkTop refuses unknown
		// arguments); anything else is left to the validator.
		if b, err := json.Marshal(ap); err != nil || string(b) != "false" {
			return false
		}
	}
	for _, p := range s.Properties {
		if !simpleProperty(p, true) {
			return false
		}
	}
	return true
}

func simpleProperty(p *jsonschema.Schema, allowItems bool) bool {
	kw, ok := keywords(p)
	if !ok {
		return false
	}
	for k := range kw {
		switch k {
		case "type", "description", "title", "default", "examples", "enum",
			"minimum", "maximum", "minLength", "maxLength":
		case "minItems", "maxItems":
			if !allowItems {
				return false
			}
		case "items":
			if !allowItems || !simpleProperty(p.Items, false) {
				return false
			}
		default:
			return false
		}
	}
	types := p.Types
	if p.Type != "" {
		types = []string{p.Type}
	}
	if len(types) == 0 {
		return false
	}
	for _, t := range types {
		switch t {
		case "null", "boolean", "string", "number", "integer":
		case "array":
			if !allowItems {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// keywords returns the keywords a schema sets, by its JSON form.
func keywords(s *jsonschema.Schema) (map[string]json.RawMessage, bool) {
	if s == nil {
		return nil, false
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return m, true
}

func checkTop(s *jsonschema.Schema, in map[string]any) error {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	closed := s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
	var unknown []string
	for k := range in {
		if _, ok := s.Properties[k]; !ok && closed {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		takes := "no arguments"
		if len(names) > 0 {
			takes = strings.Join(names, ", ")
		}
		return fmt.Errorf("unknown argument %s; this tool takes %s", quoteList(unknown), takes)
	}
	var missing []string
	for _, r := range s.Required {
		if _, ok := in[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing required argument %s", quoteList(missing))
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if p := s.Properties[k]; p != nil {
			if err := checkValue(k, p, in[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkValue checks one argument against its property schema, for the
// keywords a person gets wrong: type, range, enum, length.
func checkValue(name string, p *jsonschema.Schema, v any) error {
	types := p.Types
	if p.Type != "" {
		types = []string{p.Type}
	}
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		return fmt.Errorf("%s must be %s, got %s", name, typeWords(types), describe(v))
	}
	if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e any) bool { return equalJSON(e, v) }) {
		opts := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			opts[i] = fmt.Sprint(e)
		}
		return fmt.Errorf("%s must be one of %s, got %s", name, strings.Join(opts, ", "), describe(v))
	}
	switch v := v.(type) {
	case float64:
		lo, hi := p.Minimum, p.Maximum
		if (lo != nil && v < *lo) || (hi != nil && v > *hi) {
			switch {
			case lo != nil && hi != nil:
				return fmt.Errorf("%s must be between %s and %s, got %s", name, num(*lo), num(*hi), num(v))
			case lo != nil:
				return fmt.Errorf("%s must be at least %s, got %s", name, num(*lo), num(v))
			default:
				return fmt.Errorf("%s must be at most %s, got %s", name, num(*hi), num(v))
			}
		}
	case string:
		n := len([]rune(v))
		if p.MinLength != nil && n < *p.MinLength {
			return fmt.Errorf("%s must be at least %d characters long, got %d", name, *p.MinLength, n)
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			return fmt.Errorf("%s must be at most %d characters long, got %d", name, *p.MaxLength, n)
		}
	case []any:
		if p.MinItems != nil && len(v) < *p.MinItems {
			return fmt.Errorf("%s must list at least %d %s, got %d", name, *p.MinItems, plural(*p.MinItems, "item"), len(v))
		}
		if p.MaxItems != nil && len(v) > *p.MaxItems {
			return fmt.Errorf("%s must list at most %d %s, got %d", name, *p.MaxItems, plural(*p.MaxItems, "item"), len(v))
		}
		if it := p.Items; it != nil {
			for i, x := range v {
				if err := checkValue(fmt.Sprintf("%s[%d]", name, i), it, x); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(v any, t string) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}

func typeWords(types []string) string {
	words := make([]string, 0, len(types))
	for _, t := range types {
		switch t {
		case "null":
			words = append(words, "null")
		case "array":
			words = append(words, "a list")
		case "object":
			words = append(words, "an object")
		case "integer":
			words = append(words, "a whole number")
		case "boolean":
			words = append(words, "true or false")
		default:
			words = append(words, "a "+t)
		}
	}
	return strings.Join(words, " or ")
}

// describe names a JSON value for a message: its kind, and the value when
// it is short.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return num(v)
	case string:
		if len(v) > 40 {
			return "a string"
		}
		return fmt.Sprintf("the string %q", v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func equalJSON(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && fa == fb
	}
	if ia, ok := a.(int); ok {
		fb, ok := b.(float64)
		return ok && float64(ia) == fb
	}
	return a == b
}

// Humanize shortens a jsonschema-go validation error to a message that
// names the argument: "validating root: validating /properties/limit:
// type: ..." becomes "limit: type: ...".
func Humanize(err error) string {
	msg := err.Error()
	var path []string
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		loc, after, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		if loc != "root" {
			path = append(path, pointerToPath(loc))
		}
		msg = after
	}
	msg = strings.NewReplacer(
		"unexpected additional properties", "unknown arguments",
		"required: missing properties:", "missing required arguments",
	).Replace(msg)
	if len(path) > 0 {
		return path[len(path)-1] + ": " + msg
	}
	return msg
}

// pointerToPath turns a schema location such as /properties/a/items into
// the argument path "a[]".
func pointerToPath(ptr string) string {
	var b strings.Builder
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(segs[i+1])
				i++
			}
		case "items", "additionalProperties":
			b.WriteString("[]")
		}
	}
	if b.Len() == 0 {
		return ptr
	}
	return b.String()
}
