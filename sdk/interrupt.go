package sdk

import (
	"context"
	"fmt"
)

// interruptEvery is how many iterations Interrupted lets pass between two
// looks at the context: often enough that a cancelled call over hundreds
// of thousands of nodes stops within milliseconds, rarely enough to cost
// nothing.
const interruptEvery = 256

// Interrupted is the check of a long loop (over nodes, files, cells): on
// every 256th iteration i it reports a cancelled or expired call as a
// CANCELLED error, which the handler returns as it is. A tool that stops
// there before writing has changed nothing, and says so.
//
//	for i, n := range nodes {
//		if err := sdk.Interrupted(ctx, i); err != nil {
//			return sdk.Result{}, err
//		}
//		…
//	}
func Interrupted(ctx context.Context, i int) error {
	if i%interruptEvery != 0 {
		return nil
	}
	return Stopped(ctx)
}

// Stopped reports a cancelled or expired call as a CANCELLED error, or nil
// while the call runs; Interrupted is its cheap form for loops.
func Stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return &Error{Code: CodeCancelled, Err: err,
			Message: fmt.Sprintf("the call stopped before it finished (%v); nothing was written", err),
			Hint:    "call again if the result is still needed; for a very large scene, narrow the call (a node_path, a smaller max_depth or max_nodes)"}
	}
	return nil
}
