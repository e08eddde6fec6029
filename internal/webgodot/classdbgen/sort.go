package classdbgen

import (
	"slices"
	"strings"
)

// sortBy sorts s by a string key, stably, so equal keys keep the engine's
// order.
func sortBy[T any](s []T, key func(T) string) {
	slices.SortStableFunc(s, func(a, b T) int { return strings.Compare(key(a), key(b)) })
}
