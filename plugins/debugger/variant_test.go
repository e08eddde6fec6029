package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
)

// Bytes worked out by hand from marshalls.cpp: header (type | flags),
// then the data, padded to 4 bytes.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		d   Dialect
		v   any
		hex string
	}{
		{Godot4, []any{"step", int64(1), []any{}},
			"1c000000" + "03000000" + "04000000" + "04000000" + "73746570" + "02000000" + "01000000" + "1c000000" + "00000000"},
		{Godot3, []any{"breakpoint", "res://a.gd", int64(12), true},
			"13000000" + "04000000" + "04000000" + "0a000000" + "627265616b706f696e740000" +
				"04000000" + "0a000000" + "7265733a2f2f612e67640000" + "02000000" + "0c000000" + "01000000" + "01000000"},
		{Godot4, 0.5, "03000100" + "000000000000e03f"},
		{Godot3, 0.5, "03000000" + "0000003f"},
		{Godot4, int64(1) << 40, "02000100" + "0000000000010000"},
		{Godot4, Math{Type: "Vector2i", V: []float64{-1, 2}}, "06000000" + "ffffffff" + "02000000"},
		{Godot3, Math{Type: "Vector2", V: []float64{1, 2}}, "05000000" + "0000803f" + "00000040"},
		{Godot4, Object{ID: 5}, "18000100" + "0500000000000000"},
		{Godot3, Object{ID: 5}, "11000100" + "0500000000000000"},
		{Godot4, NodePath("/root/Main:position"), "16000000" + "02000080" + "01000000" + "01000000" +
			"04000000" + "726f6f74" + "04000000" + "4d61696e" + "08000000" + "706f736974696f6e"},
		{Godot4, StringName("_process"), "15000000" + "08000000" + "5f70726f63657373"},
	} {
		b, err := c.d.Encode(c.v)
		if err != nil {
			t.Fatalf("%v: %v", c.v, err)
		}
		if got := hex.EncodeToString(b); got != c.hex {
			t.Errorf("Godot %d %#v:\n got %s\nwant %s", c.d, c.v, got, c.hex)
		}
		back, err := c.d.Decode(b)
		if err != nil {
			t.Fatalf("decode %v: %v", c.v, err)
		}
		if !reflect.DeepEqual(back, c.v) {
			t.Errorf("Godot %d: %#v came back as %#v", c.d, c.v, back)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, d := range []Dialect{Godot3, Godot4} {
		dict := &Dict{Keys: []any{"a", int64(2)}, Values: []any{[]any{nil, true, 1.25}, NodePath("A/B")}}
		v := []any{dict, Packed{Type: "PackedStringArray", Items: []any{"x", "yy"}},
			Packed{Type: "PackedByteArray", Items: []any{int64(1), int64(255), int64(3)}},
			Packed{Type: "PackedVector2Array", Items: []any{Math{Type: "Vector2", V: []float64{1, 2}}}},
			Packed{Type: "PackedColorArray", Items: []any{Math{Type: "Color", V: []float64{1, 0.5, 0, 1}}}},
			Math{Type: "Transform3D", V: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 4, 5, 6}}, "héllo", int64(-3)}
		b, err := d.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := d.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, v) {
			t.Fatalf("Godot %d:\n got %#v\nwant %#v", d, back, v)
		}
	}
	typed := TypedArray{Of: ContainerType{Kind: 1, Builtin: 2}, Items: []any{int64(1), int64(2)}}
	b, err := Godot4.Encode(typed)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := Godot4.Decode(b); err != nil || !reflect.DeepEqual(back, typed) {
		t.Fatalf("typed array: %#v %v", back, err)
	}
}

// Hostile input is refused before anything big is allocated.
func TestMalformed(t *testing.T) {
	for name, b := range map[string]string{
		"empty":             "",
		"unknown type":      "ff000000",
		"short int":         "0200000001",
		"huge string":       "04000000ffffff7f",
		"huge array":        "1c000000ffffff7f",
		"huge dictionary":   "1b000000ffffff7f00000000",
		"huge packed ints":  "1e000000ffffff3f",
		"old node path":     "1600000004000000",
		"trailing bytes":    "0000000000000000",
		"invalid utf-8":     "0400000002000000ffff0000",
		"unknown typed":     "1c00010063000000",
		"huge object props": "1800000004000000466f6f6fffffff7f",
	} {
		raw, _ := hex.DecodeString(b)
		if _, err := Godot4.Decode(raw); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Nesting beyond maxDepth.
	var deep []byte
	for range maxDepth + 2 {
		deep = append(deep, 0x1c, 0, 0, 0, 1, 0, 0, 0)
	}
	deep = append(deep, 0, 0, 0, 0)
	if _, err := Godot4.Decode(deep); !errors.Is(err, ErrMalformed) {
		t.Errorf("deep nesting: %v", err)
	}
	// A packet longer than maxPacket.
	if _, err := readPacket(bytes.NewReader([]byte{0xff, 0xff, 0xff, 0x7f})); !errors.Is(err, ErrMalformed) {
		t.Errorf("huge packet: %v", err)
	}
}

// FuzzDecode: whatever a peer sends, decoding fails cleanly or gives a
// value that encodes and decodes to itself.
func FuzzDecode(f *testing.F) {
	for _, d := range []Dialect{Godot3, Godot4} {
		for _, v := range []any{[]any{"debug_enter", int64(1), []any{true, "Breakpoint", true, int64(1)}},
			&Dict{Keys: []any{"file", "line"}, Values: []any{"res://a.gd", int64(3)}},
			NodePath("/root/A:b"), Math{Type: "Color", V: []float64{1, 0, 0, 1}}, Object{ID: 9}, 1.5} {
			b, _ := d.Encode(v)
			f.Add(int(d), b)
		}
	}
	f.Fuzz(func(t *testing.T, which int, b []byte) {
		d := Godot4
		if which%2 == 1 {
			d = Godot3
		}
		v, err := d.Decode(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("an error that is not ErrMalformed: %v", err)
			}
			return
		}
		enc, err := d.Encode(v)
		if err != nil {
			t.Fatalf("%#v decoded but does not encode: %v", v, err)
		}
		v2, err := d.Decode(enc)
		if err != nil {
			t.Fatalf("re-decoding %#v: %v", v, err)
		}
		enc2, err := d.Encode(v2)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("%#v does not round-trip: %x vs %x (%v)", v, enc, enc2, err)
		}
	})
}
