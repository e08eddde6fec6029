package catalog

// ProblemKind classifies why a binary was refused.
type ProblemKind string

// The problem kinds.
const (
	// ProblemChanged: the binary's sha256 differs from its pin in the lock
	// file.
	ProblemChanged ProblemKind = "changed"
	// ProblemUnpinned: a lock file exists but does not pin this binary.
	ProblemUnpinned ProblemKind = "unpinned"
	// ProblemMissing: the lock file pins a binary that is not there.
	ProblemMissing ProblemKind = "missing"
	// ProblemDuplicate: binaries each named for the toolset they describe
	// claim the same name (a dev binary and an installed one); one problem
	// names them all.
	ProblemDuplicate ProblemKind = "duplicate"
	// ProblemManifest: --describe failed, printed no valid manifest, or the
	// manifest's name does not match the file name.
	ProblemManifest ProblemKind = "manifest"
	// ProblemFile: the file cannot be read, is not a regular file, or is not
	// executable.
	ProblemFile ProblemKind = "file"
	// ProblemClash: a tool of this toolset would be exposed under the same
	// MCP name as a tool of another toolset (Problem.Clash), which was kept.
	ProblemClash ProblemKind = "clash"
	// ProblemUnsafe: the binary or its directory is writable by every local
	// user, and the operator refuses such binaries (or it was not run to
	// read its manifest).
	ProblemUnsafe ProblemKind = "unsafe"
)

// Problem is a binary the catalog refused. Its message names the binary and
// says how to fix the problem.
type Problem struct {
	Kind ProblemKind
	// Name is the toolset name, from the manifest or else the file name.
	Name string
	// Path is the binary's path.
	Path string
	// Clash is, for ProblemClash, the toolset that was kept instead.
	Clash string
	Err   error
}

// Error implements error.
func (p *Problem) Error() string { return p.Err.Error() }

// Unwrap returns the underlying error.
func (p *Problem) Unwrap() error { return p.Err }

// Untrusted reports whether the problem is a difference from the lock file
// (changed, unpinned or missing binary): what `godot-mcp plugins verify`
// fails on.
func (p *Problem) Untrusted() bool {
	switch p.Kind {
	case ProblemChanged, ProblemUnpinned, ProblemMissing:
		return true
	}
	return false
}
