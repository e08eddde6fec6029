package workspace

import (
	"errors"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// fileError turns a failure to load res into an error for the caller:
// INVALID_ARGUMENT for a special file (naming what it is and the fix),
// else code with hint.
func fileError(res string, err error, code, hint string) *sdk.Error {
	var nr *sdk.NotRegularError
	if errors.As(err, &nr) && nr.Kind != "directory" {
		return sdk.Errorf(sdk.CodeInvalidArgument,
			"the workspace reads and writes regular files only: use another path, or remove the "+nr.Kind+" "+res+" from the project outside the tools",
			"%s %v", res, err)
	}
	return sdk.Errorf(code, hint, "%s %v", res, err)
}
