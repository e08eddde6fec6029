package suggest

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", 1},
		{"kitten", "sitting", 3},
		{"sprite2d", "sprite2d", 0},
		{"spirte2d", "sprite2d", 2},
		{"node", "node3d", 2},
		{"ñode", "node", 1}, // runes, not bytes
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b, 100); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := Distance("aaaaaa", "bbbbbb", 2); got != 3 {
		t.Errorf("bounded Distance = %d, want bound+1 = 3", got)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Player/Sprite2D", "Player/Shape", "Enemy", "Camera2D"}
	tests := []struct{ in, want string }{
		{"Player/Sprit2D", "Player/Sprite2D"},
		{"Enemi", "Enemy"},
		{"Camera", "Camera2D"},
		{"Boss", ""},  // nothing near
		{"", ""},      // nothing to match
		{"Shape", ""}, // a leaf alone is too far from the whole path
	}
	for _, tt := range tests {
		if got := Closest(tt.in, names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Ties go to the first in byte order, whatever the candidates' order.
	if a, b := Closest("abcdef", []string{"abcdeh", "abcdeg"}), Closest("abcdef", []string{"abcdeg", "abcdeh"}); a != "abcdeg" || b != "abcdeg" {
		t.Errorf("tie: %q, %q, want abcdeg", a, b)
	}
}
