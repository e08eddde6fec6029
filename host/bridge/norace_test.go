//go:build !race

package bridge_test

import "github.com/godot-mcp/godot-mcp/host/bridge"

// bigFrame is the frame size TestBigFrames moves: the contract's limit.
const bigFrame = bridge.MaxFrame
