// Package proto holds the generated gRPC code for the godot-mcp toolset
// protocol (toolset.proto). Toolset authors in Go use the sdk package instead;
// this package is for the host and for authors of other-language SDKs who want
// to read the wire types. See docs/plugin-protocol.md.
package proto

//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative toolset.proto
