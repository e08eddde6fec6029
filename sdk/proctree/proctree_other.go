//go:build !linux

package proctree

// Supported reports whether this system lets the package see process trees.
const Supported = false

// SetSubreaper does nothing here.
func SetSubreaper() error { return nil }

// Descendants returns nil here: there is no portable way to list them.
func Descendants(int) []int { return nil }

// Marked returns nil here.
func Marked(string) []int { return nil }

// freeze and kill are never called: Supported is false here.
func freeze(int) {}
func kill(int)   {}
