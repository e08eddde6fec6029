package sdk

import "context"

// UncheckedEditorCommandForTests sends a command to the host's editor
// service without the Editor's dry-run rules, as a plugin built on another
// SDK could: the tests check that the host and sdktest refuse it.
func UncheckedEditorCommandForTests(ctx context.Context, c *Call, command string, params any) error {
	return c.srv.editor(ctx, c, command, params, nil)
}
