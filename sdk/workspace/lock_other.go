//go:build !unix

package workspace

import (
	"context"
	"os"
)

// The host runs on Unix systems only; elsewhere the journal is not locked
// across processes.
func lockFile(context.Context, *os.File) error { return nil }
func unlockFile(*os.File)                      {}
