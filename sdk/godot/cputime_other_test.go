//go:build !unix

package godot

import "time"

// processCPUTime is unavailable here; benchmarks then omit cpu-MB/s.
func processCPUTime() time.Duration { return 0 }
