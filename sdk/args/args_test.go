package args_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/godot-mcp/godot-mcp/sdk/args"
)

func TestDecodeRefusesDuplicateKeys(t *testing.T) {
	for _, tt := range []struct {
		raw, want string
	}{
		{`{"confirm":false,"confirm":true}`, `the arguments name "confirm" more than once`},
		{`{"a":{"b":1,"b":2}}`, `a name "b" more than once`},
		{`{"a":[{"x":1},{"y":1,"y":2}]}`, `a[] name "y" more than once`},
		{`{"c\u006fnfirm":true,"confirm":false}`, `name "confirm" more than once`},
		{`[1]`, `must be a JSON object`},
		{`{"a":`, `not valid JSON`},
	} {
		_, err := args.Decode([]byte(tt.raw))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%s) = %v, want %q", tt.raw, err, tt.want)
		}
	}
	for _, ok := range []string{``, `null`, `{}`, `{"a":{"b":1},"c":{"b":2}}`, `{"a":[{"x":1},{"x":2}]}`, `{"k":"\"confirm\",\"confirm\""}`} {
		if _, err := args.Decode([]byte(ok)); err != nil {
			t.Errorf("Decode(%s) = %v", ok, err)
		}
	}
}

func resolved(t *testing.T, raw string) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCheckSpeaksInWords(t *testing.T) {
	s := resolved(t, `{"type":"object","additionalProperties":false,"required":["toolsets"],"properties":{
		"depth":{"type":"integer","minimum":1,"maximum":10},
		"min":{"type":"number","minimum":0},
		"class":{"type":"string","enum":["read_only","mutating"]},
		"toolsets":{"type":"array","minItems":1,"items":{"type":"string"}}}}`)
	for _, tt := range []struct{ in, want string }{
		{`{"toolsets":["a"],"depth":99}`, "depth must be between 1 and 10, got 99"},
		{`{"toolsets":["a"],"depth":"deep"}`, `depth must be a whole number, got the string "deep"`},
		{`{"toolsets":["a"],"depth":1.5}`, `depth must be a whole number, got 1.5`},
		{`{"toolsets":["a"],"min":-1}`, "min must be at least 0, got -1"},
		{`{"toolsets":["a"],"class":"x"}`, `class must be one of read_only, mutating, got the string "x"`},
		{`{"toolsets":[]}`, "toolsets must list at least 1 item, got 0"},
		{`{"toolsets":[3]}`, "toolsets[0] must be a string, got 3"},
		{`{"toolsets":"a"}`, `toolsets must be a list, got the string "a"`},
		{`{}`, `missing required argument "toolsets"`},
		{`{"toolsets":["a"],"colour":"red"}`, `unknown argument "colour"; this tool takes class, depth, min, toolsets`},
	} {
		in, err := args.Decode([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		err = args.Check(s, in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Check(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func ExampleCheck() {
	var s jsonschema.Schema
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"depth":{"type":"integer","minimum":1,"maximum":10}}}`), &s)
	r, _ := s.Resolve(nil)
	in, _ := args.Decode([]byte(`{"depth":99}`))
	fmt.Println(args.Check(r, in))
	// Output: depth must be between 1 and 10, got 99
}

// FuzzDecode checks that the duplicate-key scan never panics and agrees
// with a decoder-based reference on which inputs have a repeated key.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":[{"c":1,"c":2}]}}`, `{"\"":1,"\\"":2}`, `{"a":"}","b":"{"}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := args.Decode(b)
		if err != nil || !json.Valid(b) {
			return
		}
		if hasDup(json.NewDecoder(strings.NewReader(string(b)))) {
			t.Fatalf("Decode(%s) accepted a repeated key", b)
		}
	})
}

// hasDup is the slow reference: walk tokens, track keys per object.
func hasDup(dec *json.Decoder) bool {
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{obj: v == '{', keys: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.obj && top.key {
				if top.keys[v] {
					return true
				}
				top.keys[v] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.obj {
			top.key = true
		}
	}
}

// A value argument is shown as a string but checked as any JSON value;
// the other arguments keep their types.
func TestCheckingSchemaAcceptsAnyJSONForValueArguments(t *testing.T) {
	shown := json.RawMessage(`{"type":"object","properties":{"value":{"type":"string","description":"the value"},"property":{"type":"string"}},"required":["property","value"],"additionalProperties":false}`)
	checking, err := args.CheckingSchema(shown, []string{"value"})
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(checking, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := args.Compile(r)
	for _, v := range []any{"Vector2(1, 2)", 5.0, true, []any{1.0, 2.0}, map[string]any{"type": "BoxMesh"}, nil} {
		if err := c.Check(map[string]any{"property": "p", "value": v}); err != nil {
			t.Errorf("value %#v refused: %v", v, err)
		}
	}
	if err := c.Check(map[string]any{"property": 5.0, "value": 1.0}); err == nil {
		t.Error("a number for the string argument property passed")
	}
	if err := c.Check(map[string]any{"property": "p"}); err == nil {
		t.Error("a missing value passed: it is still required")
	}
	if _, err := args.CheckingSchema(shown, []string{"nope"}); err == nil {
		t.Error("an undeclared value argument was accepted")
	}
}
