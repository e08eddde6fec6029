package sdk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OverwriteRefusal is the host's confirm rule for a tool declared with
// [ConfirmOverwrite](arg): the refusal when the call's argument arg names a
// file that exists under the project root, nil otherwise — a new file, an
// argument that is not a res:// path (the tool refuses that itself), or no
// project. tool is the exposed name, for the message. The host and sdktest
// both apply it, so a toolset's tests see what agents will.
func OverwriteRefusal(root, tool, arg string, args map[string]any) *Error {
	raw, _ := args[arg].(string)
	if root == "" || raw == "" {
		return nil
	}
	res, err := CleanResPath(arg, raw)
	if err != nil {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(res, "res://")))); err != nil {
		return nil
	}
	return &Error{Code: CodePreconditionFailed, Required: RequiredConfirm,
		Message: fmt.Sprintf("%s would replace %s, which exists; without confirm=true nothing ran", tool, res),
		Hint:    `call it again with "confirm": true once the user has agreed to replace the file, or with "dry_run": true to preview the change; a new path needs no confirm`}
}
