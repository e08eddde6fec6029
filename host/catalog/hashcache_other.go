//go:build !unix

package catalog

import "os"

// Without an inode and a status-change time, a cached digest could vouch
// for a replaced file: always hash.
func statKeyOf(os.FileInfo) (statKey, bool) { return statKey{}, false }
