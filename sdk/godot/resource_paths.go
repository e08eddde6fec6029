package godot

// SetPath points the declaration at another res:// path, as moving the
// referenced file requires. Only this line is re-rendered; the id and every
// ExtResource("id") use stay as they are, and so does the uid field, which
// keeps naming the same resource after a move.
func (e *ExtResourceDecl) SetPath(path string) {
	e.s.setField("path", String(path), []string{"type", "uid", "path", "id"})
}
