//go:build !unix

package workspace

import "os"

// The host runs on Unix systems only; elsewhere the journal is not locked
// across processes.
func lockFile(*os.File)   {}
func unlockFile(*os.File) {}
