package uid

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

var corpusUID = regexp.MustCompile(`uid://[a-z0-9]+`)

func TestCorpusRoundTrip(t *testing.T) {
	root := fixtures.Dir(t)
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".tscn", ".tres", ".godot":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range corpusUID.FindAll(data, -1) {
			seen[string(m)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 100 {
		t.Fatalf("found only %d distinct UIDs in %s; the corpus has about 300", len(seen), root)
	}
	texts := make([]string, 0, len(seen))
	for s := range seen {
		texts = append(texts, s)
	}
	sort.Strings(texts)
	for _, text := range texts {
		id, err := Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if !id.Valid() {
			t.Errorf("Parse(%q) = %d, want a valid ID", text, id)
		}
		if got := id.String(); got != text {
			t.Errorf("Parse(%q).String() = %q, want the input back", text, got)
		}
		if !IsCanonical(text) {
			t.Errorf("IsCanonical(%q) = false for engine-written text", text)
		}
	}
	t.Logf("%d distinct UIDs round-tripped", len(texts))
}

func TestFormat(t *testing.T) {
	tests := []struct {
		id   ID
		want string
	}{
		{0, "uid://a"},
		{1, "uid://b"},
		{24, "uid://y"},
		{25, "uid://0"},
		{33, "uid://8"},
		{34, "uid://ba"},
		{34*34 - 1, "uid://88"},
		// 2^63-1 in base 34 has 13 digits, the most String ever writes.
		{Max, "uid://d4n4ub6itg400"},
		{Invalid, InvalidText},
		{-12345, InvalidText},
	}
	for _, tt := range tests {
		if got := tt.id.String(); got != tt.want {
			t.Errorf("ID(%d).String() = %q, want %q", tt.id, got, tt.want)
		}
		if got := Format(tt.id); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", tt.id, got, tt.want)
		}
	}
	if n := len(strings.TrimPrefix(Max.String(), Prefix)); n != MaxDigits {
		t.Errorf("Max has %d digits, MaxDigits = %d", n, MaxDigits)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		text string
		want ID
	}{
		{"uid://a", 0},
		{"uid://b", 1},
		{"uid://0", 25},
		{"uid://8", 33},
		{"uid://ba", 34},
		{"uid://d4n4ub6itg400", Max},
		{"uid://cecaux1sm7mo0", MustParse("uid://cecaux1sm7mo0")},
		{InvalidText, Invalid},
		// The engine reads 'z' as 25, the same as '0'.
		{"uid://z", 25},
		{"uid://bz", 34 + 25},
		// ... and '9' as 34, one past the largest digit, carrying into
		// the next place: "b9" is 1*34+34 = 68 = "ca".
		{"uid://9", 34},
		{"uid://b9", 68},
		// Leading zero digits ('a') are accepted and change nothing.
		{"uid://aab", 1},
		// No digits at all reads as zero, as in the engine.
		{"uid://", 0},
		// Values past 63 bits are masked, never negative: 34^13 wraps.
		{"uid://baaaaaaaaaaaaa", ID(pow34(13) & (1<<63 - 1))},
	}
	for _, tt := range tests {
		got, err := Parse(tt.text)
		if err != nil {
			t.Errorf("Parse(%q): unexpected error %v", tt.text, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %d, want %d", tt.text, got, tt.want)
		}
		if tt.want != Invalid && !got.Valid() {
			t.Errorf("Parse(%q) = %d, which is not Valid", tt.text, got)
		}
	}
}

func pow34(n int) uint64 {
	v := uint64(1)
	for range n {
		v *= 34
	}
	return v
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		text      string
		offset    int
		wantInMsg string
	}{
		{"", 0, "missing the uid:// prefix"},
		{"cecaux1sm7mo0", 0, "missing the uid:// prefix"},
		{"UID://abc", 0, "missing the uid:// prefix"},
		{"res://icon.svg", 0, "missing the uid:// prefix"},
		{" uid://abc", 0, "missing the uid:// prefix"},
		{"uid://ABC", 6, `invalid character 'A' at offset 6`},
		{"uid://abc ", 9, `invalid character ' ' at offset 9`},
		{"uid://ab-c", 8, `invalid character '-'`},
		{"uid://<invalid", 6, `invalid character '<'`},
		{"uid://é", 6, `invalid character 'é'`},
	}
	for _, tt := range tests {
		id, err := Parse(tt.text)
		if err == nil {
			t.Errorf("Parse(%q) = %d, want an error", tt.text, id)
			continue
		}
		if id != Invalid {
			t.Errorf("Parse(%q) returned %d with its error, want Invalid", tt.text, id)
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T is not a *ParseError", tt.text, err)
			continue
		}
		if pe.Offset != tt.offset || pe.Text != tt.text {
			t.Errorf("Parse(%q): ParseError{Text %q, Offset %d}, want offset %d", tt.text, pe.Text, pe.Offset, tt.offset)
		}
		msg := err.Error()
		for _, want := range []string{tt.wantInMsg, "expected", "a-y and 0-8"} {
			if !strings.Contains(msg, want) {
				t.Errorf("Parse(%q) error %q does not mention %q", tt.text, msg, want)
			}
		}
	}
}

func TestIsCanonical(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"uid://cecaux1sm7mo0", true},
		{"uid://a", true},
		{InvalidText, true},
		{"uid://z", false},              // engine never writes 'z'
		{"uid://b9", false},             // nor '9'
		{"uid://ab", false},             // leading zero digit
		{"uid://", false},               // no digits
		{"uid://baaaaaaaaaaaaa", false}, // 14 digits, wraps
		{"uid://A", false},
		{"res://x", false},
	}
	for _, tt := range tests {
		if got := IsCanonical(tt.text); got != tt.want {
			t.Errorf("IsCanonical(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestTextMarshaling(t *testing.T) {
	var id ID
	if err := id.UnmarshalText([]byte("uid://cecaux1sm7mo0")); err != nil {
		t.Fatal(err)
	}
	out, err := id.MarshalText()
	if err != nil || string(out) != "uid://cecaux1sm7mo0" {
		t.Fatalf("MarshalText = %q, %v", out, err)
	}
	before := id
	if err := id.UnmarshalText([]byte("nope")); err == nil {
		t.Fatal("UnmarshalText accepted invalid text")
	}
	if id != before {
		t.Errorf("failed UnmarshalText changed the ID from %d to %d", before, id)
	}
}

func TestGenerate(t *testing.T) {
	tests := []struct {
		name  string
		bytes []byte
		want  ID
	}{
		{"zero", make([]byte, 8), 0},
		{"little endian", []byte{1, 0, 0, 0, 0, 0, 0, 0}, 1},
		{"top bit masked", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, Max},
		{"only 8 bytes read", []byte{2, 0, 0, 0, 0, 0, 0, 0, 9, 9}, 2},
	}
	for _, tt := range tests {
		got, err := Generate(bytes.NewReader(tt.bytes))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: Generate = %d, want %d", tt.name, got, tt.want)
		}
	}
	if id, err := Generate(bytes.NewReader([]byte{1, 2, 3})); err == nil || id != Invalid {
		t.Errorf("Generate on a short reader = %d, %v; want Invalid and an error", id, err)
	}
}

func TestNew(t *testing.T) {
	seen := map[ID]bool{}
	for range 1000 {
		id := New()
		if !id.Valid() {
			t.Fatalf("New() = %d, not valid", id)
		}
		text := id.String()
		if strings.ContainsAny(text[len(Prefix):], "z9") {
			t.Fatalf("New().String() = %q contains z or 9", text)
		}
		if back, err := Parse(text); err != nil || back != id {
			t.Fatalf("Parse(%q) = %d, %v; want %d", text, back, err, id)
		}
		seen[id] = true
	}
	// 1000 draws from 2^63 values: a repeat means the generator is broken.
	if len(seen) != 1000 {
		t.Errorf("New() repeated itself: %d distinct out of 1000", len(seen))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"uid://cecaux1sm7mo0", "uid://a", "uid://", InvalidText, "uid://z9",
		"uid://d4n4ub6itg400", "uid://88888888888888888888", "res://x", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		id, err := Parse(text)
		if err != nil {
			if id != Invalid {
				t.Fatalf("Parse(%q) = %d with error %v; want Invalid", text, id, err)
			}
			return
		}
		if text != InvalidText && !id.Valid() {
			t.Fatalf("Parse(%q) = %d: negative ID from digit text", text, id)
		}
		out := id.String()
		if strings.ContainsAny(strings.TrimPrefix(out, Prefix), "z9") {
			t.Fatalf("String() = %q emits z or 9", out)
		}
		if id.Valid() && len(out) > len(Prefix)+MaxDigits {
			t.Fatalf("String() = %q is longer than %d digits", out, MaxDigits)
		}
		back, err := Parse(out)
		if err != nil || back != id {
			t.Fatalf("Parse(String(%d)) = %d, %v", id, back, err)
		}
		if IsCanonical(text) != (out == text) {
			t.Fatalf("IsCanonical(%q) disagrees with String() = %q", text, out)
		}
	})
}
