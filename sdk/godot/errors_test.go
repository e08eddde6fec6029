package godot

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFileErrors(t *testing.T) {
	const hdr = "[gd_scene format=3]\n\n"
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"empty", "", 1, 1, "expected a [gd_scene] or [gd_resource] file header, found end of file"},
		{"no header", "[node name=\"A\"]\n", 1, 1, "expected a [gd_scene] or [gd_resource] file header, found [node]"},
		{"property before header", "a = 1\n[gd_scene]\n", 1, 1, `property "a" before the [gd_scene] or [gd_resource] header`},
		{"newer format", "[gd_scene format=5]\n", 1, 1, "format=5 by a newer Godot"},
		{"format not int", "[gd_scene format=\"3\"]\n", 1, 1, `field "format" of [gd_scene] must be an integer`},
		{"resource without type", "[gd_resource format=3]\n", 1, 1, `[gd_resource] is missing its "type" field`},
		{"resource without [resource]", "[gd_resource type=\"X\" format=3]\n", 2, 1, "expected a [resource] section"},
		{"equals in header", hdr + "[node name=\"A\" type=\"Node\" = ]\n", 3, 28, "expected a field name or ']' in [node] header, found '='"},
		{"field without equals", hdr + "[node name \"A\"]\n", 3, 12, `expected '=' after field "name" in [node] header, found string "A"`},
		{"unterminated header", hdr + "[node name=\"A\"\n", 3, 1, "unterminated [node] header"},
		{"missing section name", hdr + "[ = 1]\n", 3, 3, "expected a section name after '[', found '='"},
		{"unknown section", hdr + "[foo]\n", 3, 1, "unknown section [foo]"},
		{"second header", hdr + "[gd_scene]\n", 3, 1, "unexpected second file header [gd_scene]"},
		{"ext missing id", hdr + "[ext_resource type=\"Script\" path=\"res://a.gd\"]\n", 3, 1, `[ext_resource] is missing its "id" field`},
		{"ext after sub", hdr + "[sub_resource type=\"A\" id=\"a\"]\n[ext_resource type=\"S\" path=\"p\" id=\"1\"]\n", 4, 1, "[ext_resource] must come before"},
		{"sub after node", hdr + "[node name=\"R\" type=\"Node\"]\n[sub_resource type=\"A\" id=\"a\"]\n", 4, 1, "[sub_resource] must come before"},
		{"duplicate sub id", hdr + "[sub_resource type=\"A\" id=\"a\"]\n[sub_resource type=\"B\" id=\"a\"]\n", 4, 1, `duplicate [sub_resource] id "a"`},
		{"unknown ext id", hdr + "[node name=\"R\" type=\"Node\"]\nscript = ExtResource(\"9\")\n", 4, 10, `ExtResource("9") does not match any [ext_resource] id`},
		{"sub used before declared", hdr + "[sub_resource type=\"A\" id=\"a\"]\nb = SubResource(\"b\")\n[sub_resource type=\"B\" id=\"b\"]\n", 4, 5, `SubResource("b") does not match any [sub_resource] declared before it`},
		{"property after ext", hdr + "[ext_resource type=\"S\" path=\"p\" id=\"1\"]\nx = 1\n", 4, 1, `property "x" is not allowed after [ext_resource]`},
		{"resource in scene", hdr + "[resource]\n", 3, 1, "[resource] section in a [gd_scene] file"},
		{"node without parent", hdr + "[node name=\"R\" type=\"Node\"]\n[node name=\"B\" type=\"Node\"]\n", 4, 1, `[node] "B" has no "parent" field`},
		{"node without name", hdr + "[node type=\"Node\"]\n", 3, 1, `[node] is missing its "name" field`},
		{"name not a string", hdr + "[node name=1]\n", 3, 1, `field "name" of [node] must be a string, found int`},
		{"connection missing method", hdr + "[node name=\"R\" type=\"Node\"]\n[connection signal=\"s\" from=\".\" to=\".\"]\n", 4, 1, `[connection] is missing its "method" field`},
		{"key without equals", hdr + "[node name=\"R\" type=\"Node\"]\nfoo\n", 4, 1, `expected '=' after property name "foo", found end of file`},
		{"missing value", hdr + "[node name=\"R\" type=\"Node\"]\nfoo =\n", 5, 1, "expected a value after 'foo =', found end of file"},
		{"empty key", hdr + "[node name=\"R\" type=\"Node\"]\n = 1\n", 4, 2, "expected a property name before '='"},
		{"bad value", hdr + "[node name=\"R\" type=\"Node\"]\nposition = Vector2(1, 2, 3)\n", 4, 12, "Vector2 expects 2 numbers, found 3"},
		{"bad value later line", hdr + "[node name=\"R\" type=\"Node\"]\nd = {\n\"a\": 1\n\"b\": 2\n}\n", 6, 1, "expected ',' or '}' in dictionary, found string \"b\""},
		{"column counts characters", hdr + "[node name=\"ÉÉ\" = 1]\n", 3, 17, "expected a field name or ']' in [node] header, found '='"},
		{"node in resource", "[gd_resource type=\"X\" format=3]\n[node name=\"A\"]\n", 2, 1, "[node] section in a [gd_resource] file"},
		{"section after resource", "[gd_resource type=\"X\" format=3]\n[resource]\n[sub_resource type=\"A\" id=\"a\"]\n", 3, 1, "unexpected [sub_resource] after the [resource] section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("main.tscn", []byte(tt.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SyntaxError", err)
			}
			if se.File != "main.tscn" || se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %s\nwant main.tscn:%d:%d: ...%s...", se, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestSyntaxErrorFormat(t *testing.T) {
	_, err := ParseFile("main.tscn", []byte("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\" = ]\n"))
	want := "main.tscn:3:28: expected a field name or ']' in [node] header, found '='"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	_, err = ParseValue([]byte("[1 2]"))
	if err == nil || err.Error() != "1:4: expected ',' or ']' in array, found number 2" {
		t.Fatalf("got %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"[application\nkey=1\n", 1, 1, "unterminated section header"},
		{"[a]\nkey\n", 2, 1, `expected '=' after property name "key"`},
		{"[a]\nkey=\n", 3, 1, "expected a value after 'key ='"},
		{"[a]\nk=Vector2(1)\n", 2, 3, "Vector2 expects 2 numbers, found 1"},
		{"[a]\nk={\n\"x\": 1,\n\"y\" 2}\n", 4, 5, "expected ':' after dictionary key"},
	}
	for _, tt := range tests {
		_, err := ParseConfig("x.cfg", []byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: got %v", tt.src, err)
		}
		if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: got %s, want %d:%d %s", tt.src, se, tt.line, tt.col, tt.msg)
		}
	}
}

// Inputs the engine's loader also tolerates must parse: comments and blank
// lines anywhere, a BOM, CRLF line endings, quoted keys, keys with spaces
// (the engine drops them), and ConfigFile keys before any section.
func TestTolerantInputs(t *testing.T) {
	for _, src := range []string{
		"\ufeff[gd_scene format=3]\n[node name=\"A\" type=\"Node\"]\n",
		"; leading comment\n[gd_scene format=3] ; trailing\n\n; between\n[node name=\"A\" type=\"Node\"]\n\"quoted key\" = 1\nspaced key = 2\nx = [ ; inside\n1 ]\n",
		"[gd_scene format=3]\r\n\r\n[node name=\"A\" type=\"Node\"]\r\nx = 1\r\n",
		"[gd_scene load_steps=2 format=3]\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=1]\n[node name=\"A\" type=\"Node\"]\nscript = ExtResource(1)\n",
		"[gd_scene]\n[node name=\"A\" type=\"Node\"]",
	} {
		f, err := ParseFile("ok.tscn", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if string(f.Bytes()) != src {
			t.Errorf("%q does not round-trip", src)
		}
	}
	f := mustParseFile(t, "ok.tscn", "[gd_scene format=3]\n[node name=\"A\" type=\"Node\"]\n\"quoted key\" = 1\nspaced key = 2\n")
	if !f.Root().Has("quoted key") || !f.Root().Has("spacedkey") {
		t.Errorf("keys = %v", f.Root().Keys())
	}
}

// A parse error quotes a bounded excerpt of the offending input, never a
// whole 1 MB line: the head of the piece at the error, and its length.
func TestSyntaxErrorsQuoteABoundedExcerpt(t *testing.T) {
	const hdr = "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\n"
	big := strings.Repeat("x", 1<<20)
	tests := []struct {
		name, src, want string
	}{
		{"identifier value", hdr + "foo = " + big + "\n", `unexpected identifier "` + big[:maxExcerpt] + `"… (1048576 bytes), expected a value`},
		{"header field", "[gd_scene format=3]\n\n[node name=\"A\" " + big + "\n", `expected '=' after field "` + big[:maxExcerpt] + `"… (1048576 bytes) in [node] header`},
		{"section name", "[gd_scene format=3]\n\n[" + big + "\n", "unterminated [" + big[:maxExcerpt] + "… (1048576 bytes)] header"},
		{"property name", hdr + big + "\n", `expected '=' after property name "` + big[:maxExcerpt] + `"… (1048576 bytes)`},
		{"unknown section", "[gd_scene format=3]\n\n[" + big + "]\n", "unknown section [" + big[:maxExcerpt] + "… (1048576 bytes)]"},
		{"multibyte cut", hdr + "x" + strings.Repeat("é", 1<<19) + "\n", "(1048577 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("big.tscn", []byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a syntax error", err)
			}
			if len(err.Error()) > 400 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("message of %d bytes, want it short and holding %q: %.300s", len(err.Error()), tc.want, err.Error())
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("excerpt cut a character: %q", err.Error())
			}
		})
	}
}
