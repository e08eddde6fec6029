// Package deps indexes a Godot project's files and answers whole-project
// questions from them: the resource dependency graph (ext_resource paths and
// uid:// references, Resource("…") values, scripts' preload/load string
// literals, project settings, export presets), its cycles, what is reachable
// from the project's roots, where a path, node type or signal is used, and
// the integrity problems of scenes and resources, each with file:line.
//
// It reads files, never writes them, and is built for big projects:
//
//   - An [Index] keeps one parsed summary ([FileInfo]) per file, keyed by the
//     file's version: "sha256:" and the hex SHA-256 of its bytes, the same
//     version string the host's workspace reports. A file whose size and
//     modification time did not change is not read again; a file that was
//     rewritten with identical bytes is read and hashed but not parsed again.
//     [Index.Invalidate] drops entries a caller knows it changed.
//   - Files that need parsing are parsed in parallel, one worker per CPU.
//   - A [Graph] is an immutable snapshot: every query on it is read-only and
//     safe for concurrent use.
//
// Paths are res:// paths throughout. A reference that cannot be resolved to
// a file of the project keeps its raw text and an empty Target.
package deps
