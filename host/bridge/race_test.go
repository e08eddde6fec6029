//go:build race

package bridge_test

// bigFrame is the frame size TestBigFrames moves. The race detector makes
// every byte of a 32 MiB frame cost ~15× more (JSON scanning on both sides),
// so race runs move 8 MiB, which still needs the raised limits (the
// library's default is 32 KiB, Godot's 64 KiB); plain runs test the exact
// 32 MiB boundary.
const bigFrame = 8 << 20
