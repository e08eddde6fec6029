package args

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func resolve(t *testing.T, raw string) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A schema Check decides alone skips the validator; any keyword it does
// not check brings the validator back, and both paths agree.
func TestCompileSimple(t *testing.T) {
	simple := `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
		"path":{"type":"string","description":"p","default":"res://"},
		"depth":{"type":"integer","minimum":1,"maximum":10,"default":3},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":2},
		"confirm":{"type":"boolean","default":false}}}`
	c := Compile(resolve(t, simple))
	if !c.simple {
		t.Fatal("a schema of plain keywords is not simple")
	}
	for _, raw := range []string{
		`{"type":"object","properties":{"p":{"type":"string","pattern":"^a"}}}`,
		`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}}}}}`,
		`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`,
		`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`,
	} {
		if Compile(resolve(t, raw)).simple {
			t.Errorf("%s is not decided by checkTop alone", raw)
		}
	}
	full := &Checker{resolved: c.resolved, schema: c.schema}
	for _, in := range []string{`{"path":"a"}`, `{"path":"a","depth":0}`, `{"path":"a","tags":["c"]}`,
		`{"path":"a","tags":["a","b","a"]}`, `{"path":1}`, `{}`, `{"path":"a","x":1}`, `{"path":"a","depth":2.5}`} {
		m, err := Decode([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		fast, slow := c.Check(m), full.Check(m)
		if (fast == nil) != (slow == nil) {
			t.Errorf("%s: simple path %v, validator %v", in, fast, slow)
		}
	}
	m := map[string]any{"path": "x"}
	if added, err := c.ApplyDefaults(m); !added || err != nil || m["depth"] != float64(3) || m["confirm"] != false {
		t.Errorf("defaults: %v %v %v", m, added, err)
	}
}
