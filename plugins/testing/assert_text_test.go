package main

import "testing"

// An expected value sent as text (the argument's schema type) compares as
// the value it spells, unless the actual value is text itself.
func TestEvaluateExpectedAsText(t *testing.T) {
	for _, c := range []struct {
		actual, expected any
		want             bool
	}{
		{map[string]any{"x": 1.0, "y": 2.0}, "[1, 2]", true},
		{map[string]any{"x": 1.0, "y": 2.0}, `{"x": 1, "y": 3}`, false},
		{3.0, "3", true},
		{true, "true", true},
		{"[1, 2]", "[1, 2]", true},
		{"3", "3", true},
	} {
		if got, msg := evaluate(c.actual, c.expected, "==", nil); got != c.want {
			t.Errorf("evaluate(%v == %v) = %v %s, want %v", c.actual, c.expected, got, msg, c.want)
		}
	}
}
