//go:build !unix

package importer

import "time"

// processCPUTime is not measured here; benchmarks leave out the metric.
func processCPUTime() time.Duration { return 0 }
