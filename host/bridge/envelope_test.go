package bridge

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestDecodeFrame(t *testing.T) {
	cases := []struct {
		in   string
		kind frameKind
		id   string
		code string
	}{
		{`{"id":"7","ok":true,"result":{"pong":true}}`, frameReply, "7", ""},
		{`{"id":"7","ok":true}`, frameReply, "7", ""},
		{`{"id":"7","ok":false,"error":"RESOURCE_NOT_FOUND","hint":"No node at 'X'.","required":"node_path"}`, frameReply, "7", "RESOURCE_NOT_FOUND"},
		{`{"id":"","ok":false,"error":"VALIDATION_ERROR","hint":"Malformed JSON envelope."}`, frameReply, "", "VALIDATION_ERROR"},
		{`{"id":"7","result":{}}`, frameBadReply, "7", ""},
		{`{"id":"7","ok":1}`, frameBadReply, "7", ""},
		{`{"id":"7","ok":true,"result":null}`, frameBadReply, "7", ""},
		{`{"id":"7","ok":false,"error":3}`, frameBadReply, "7", ""},
		{`{"id":"7","ok":false,"error":"X","hint":1}`, frameBadReply, "7", ""},
		{`{"id":7,"ok":true,"result":{}}`, frameJunk, "", ""},
		{`{"id":"auth","command":"cmd_auth","params":{"token":"t"}}`, frameAuth, "auth", ""},
		{`{"id":"peer_hello","command":"cmd_peer_hello","params":{"project_path":"/p/"}}`, frameHello, "peer_hello", ""},
		{`{"command":"cmd_ping"}`, frameCommand, "", ""},
		{`{"command":5}`, frameJunk, "", ""},
		{`null`, frameJunk, "", ""},
		{`[]`, frameJunk, "", ""},
		{`"x"`, frameJunk, "", ""},
		{`{"id":"1","ok":true,"result":{}} trailing`, frameJunk, "", ""},
		{``, frameJunk, "", ""},
	}
	for _, c := range cases {
		f := decodeFrame([]byte(c.in))
		if f.kind != c.kind || f.id != c.id || f.code != c.code {
			t.Errorf("%s: got kind %d id %q code %q (%s), want %d %q %q", c.in, f.kind, f.id, f.code, f.problem, c.kind, c.id, c.code)
		}
		if (f.kind == frameJunk || f.kind == frameBadReply) && f.problem == "" {
			t.Errorf("%s: no problem stated", c.in)
		}
	}
	f := decodeFrame([]byte(`{"id":"auth","command":"cmd_auth","params":{"token":"abc"}}`))
	if f.token != "abc" {
		t.Errorf("token %q", f.token)
	}
	f = decodeFrame([]byte(`{"id":"peer_hello","command":"cmd_peer_hello","params":{"project_path":"/p/","godot_version":"4.7.2-stable","addon_version":"1.0"}}`))
	if f.hello != (Hello{"/p/", "4.7.2-stable", "1.0"}) {
		t.Errorf("hello %+v", f.hello)
	}
}

func TestEncodeCommand(t *testing.T) {
	got, err := encodeCommand("12", "cmd_x", map[string]any{"b": 1, "a": "<&>"})
	if err != nil || string(got) != `{"id":"12","command":"cmd_x","params":{"a":"\u003c\u0026\u003e","b":1}}` {
		t.Fatalf("%s %v", got, err)
	}
	if got, _ := encodeCommand("1", "cmd_x", nil); string(got) != `{"id":"1","command":"cmd_x","params":{}}` {
		t.Fatalf("%s", got)
	}
	if got, _ := encodeCommand("1", "cmd \"x\"", nil); string(got) != `{"id":"1","command":"cmd \"x\"","params":{}}` {
		t.Fatalf("%s", got)
	}
	for _, p := range []any{[]int{}, json.RawMessage(`1`), json.RawMessage(`{`), 3} {
		if _, err := encodeCommand("1", "cmd_x", p); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
}

// FuzzDecodeFrame feeds the decoder arbitrary frames, as a broken or hostile
// editor could. It must never panic, and whatever it accepts as a reply must
// be something the host can hand on: a result that is a JSON object, or a
// failure with a code.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"id":"7","ok":true,"result":{"pong":true}}`,
		`{"id":"7","ok":false,"error":"VALIDATION_ERROR","hint":"x","required":"y"}`,
		`{"id":"auth","command":"cmd_auth","params":{"token":"t"}}`,
		`{"id":"peer_hello","command":"cmd_peer_hello","params":{"project_path":"/p/","godot_version":"4.4","addon_version":"1"}}`,
		`{"id":"","ok":false,"error":"VALIDATION_ERROR","hint":"Malformed JSON envelope."}`,
		`{"id":"1","ok":true,"result":[]}`, `{"ID":"1","OK":true}`, `{"id":"12","ok":true,"result":{"a":[1,{"b":"}"}]} }`,
		`{"id":"1","ok":true,"result":{},"x":{}}`, `{"id":"1","ok":true,"result":{"a":1}}}`, `null`, `{}`, `{"id":"1"}`, "\x00", `{"id":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := decodeFrame(data)
		if fast, ok := fastReply(data); ok {
			slow := slowDecode(data)
			if slow.kind != fast.kind || slow.id != fast.id || slow.ok != fast.ok || !jsonEqual(slow.result, fast.result) {
				t.Fatalf("fast path %+v, slow path %+v", fast, slow)
			}
		}
		switch fr.kind {
		case frameReply:
			if fr.ok {
				if !json.Valid(fr.result) || !isKind(fr.result, '{') {
					t.Fatalf("ok reply with result %q", fr.result)
				}
				if len(fr.result) > 0 && len(data) > 0 && &fr.result[0] == &data[0] {
					t.Fatal("result aliases the read buffer")
				}
			} else if fr.code == "" {
				t.Fatal("failure without a code")
			}
			if !json.Valid(data) {
				t.Fatal("invalid JSON accepted as a reply")
			}
		case frameBadReply, frameJunk:
			if fr.problem == "" {
				t.Fatal("rejected without a reason")
			}
		}
		if bytes.Contains([]byte(fr.problem), []byte("\n")) {
			t.Fatal("a problem spans lines in the log")
		}
	})
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
