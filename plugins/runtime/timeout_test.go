package main

import "testing"

// The reference's timeout_ms is rounded up to whole seconds; timeout_seconds
// wins when both are given.
func TestTimeoutInEitherUnit(t *testing.T) {
	for _, c := range []struct{ secs, ms, want int }{{0, 0, 0}, {0, 1, 1}, {0, 1500, 2}, {0, 3000, 3}, {5, 1000, 5}} {
		if got := (shotArgs{TimeoutSeconds: c.secs, TimeoutMs: c.ms}).seconds(); got != c.want {
			t.Errorf("seconds(%d s, %d ms) = %d, want %d", c.secs, c.ms, got, c.want)
		}
	}
}
