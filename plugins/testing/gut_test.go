package main

import (
	"os"
	"reflect"
	"testing"
)

// gut9.txt is written from GUT 9's summary.gd layout (Godot 4): colour
// codes, the unit separator before "Pending Tests", failures whose line is
// on the next line or on the same one, an inner class.
func TestParseGUT9(t *testing.T) {
	b, err := os.ReadFile("testdata/gut9.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := ParseGUT(string(b))
	want := Summary{Found: true, Scripts: 2, Passing: 5, Failing: 2, Pending: 1, AssertsOK: 9, AssertsTotal: 12,
		Failures: []Failure{
			{Script: "res://test/unit/test_player.gd", Test: "test_jump", Message: "[3] expected to equal [4]:", Line: 12},
			{Script: "res://test/unit/test_player.gd", Test: "test_jump", Message: "[true] expected to be false:  at line 14", Line: 14},
			{Script: "res://test/unit/test_enemy.gd.TestInner", Test: "test_dies", Message: "expected signal [died] to have been emitted"},
		}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got  %+v\nwant %+v", s, want)
	}
}

// gut7.txt is the older layout GUT 7 prints under Godot 3.
func TestParseGUT7(t *testing.T) {
	b, err := os.ReadFile("testdata/gut7.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := ParseGUT(string(b))
	if !s.Found || s.Scripts != 1 || s.Tests != 3 || s.Passing != 3 || s.Failing != 0 || s.AssertsTotal != 4 || len(s.Failures) != 0 {
		t.Fatalf("%+v", s)
	}
	if s := ParseGUT("Scripts: 3\nno summary here\n"); s.Found {
		t.Fatalf("found a summary in %+v", s)
	}
}

func FuzzParseGUT(f *testing.F) {
	b, _ := os.ReadFile("testdata/gut9.txt")
	f.Add(string(b))
	f.Fuzz(func(t *testing.T, s string) {
		out := ParseGUT(s)
		if len(out.Failures) > maxFailure {
			t.Fatal("unbounded failures")
		}
	})
}
