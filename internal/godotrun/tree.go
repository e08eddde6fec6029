package godotrun

import (
	"syscall"

	"github.com/godot-mcp/godot-mcp/sdk/proctree"
)

// killTree stops the group (so nothing in it forks while it is walked),
// freezes and kills root's descendants that left the group (Godot 3's
// OS.execute(…, false) puts its child in a new session with setsid), kills
// the group, and then every process carrying the run's marker (descendants
// whose parent already exited). It is the same mechanism the host uses on a
// plugin (sdk/proctree, docs/supervisor.md).
func (g *group) killTree(root int) {
	g.mu.Lock()
	if g.reaped {
		g.mu.Unlock()
		return
	}
	_ = syscall.Kill(-g.pgid, syscall.SIGSTOP)
	proctree.KillDescendants(root, nil)
	_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	g.mu.Unlock()
	g.kill()
}
