module github.com/godot-mcp/godot-mcp/examples/todo-toolset

go 1.26

replace github.com/godot-mcp/godot-mcp/sdk => ../../sdk
