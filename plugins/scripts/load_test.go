package main

import "github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"

var loadOpts = loadcheck.Options{}
