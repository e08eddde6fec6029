package sdk_test

import (
	"context"
	"errors"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func TestInterrupted(t *testing.T) {
	live := context.Background()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		i    int
		want bool
	}{
		{"running call", live, 0, false},
		{"cancelled, checked iteration", gone, 512, true},
		{"cancelled, between checks", gone, 513, false},
	} {
		err := sdk.Interrupted(tc.ctx, tc.i)
		if (err != nil) != tc.want {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var e *sdk.Error
		if tc.want && (!errors.As(err, &e) || e.Code != sdk.CodeCancelled || !errors.Is(err, context.Canceled) || e.Hint == "") {
			t.Errorf("%s: %#v, want a CANCELLED error with a hint wrapping context.Canceled", tc.name, err)
		}
	}
}
