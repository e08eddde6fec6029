package nodeedit

import (
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/deps"
)

// follower is another scene a rename updated, to be written with the
// edited one.
type follower struct {
	path    string
	doc     *godot.File
	version sdk.FileVersion
}

// followRename finds the scenes that build on this one (inherit it, or
// instance it, directly or through other scenes) and name the node at
// oldPath of it, and renames it there too (godot.File.FollowRename), in
// the same action (one undo restores them all). It returns the scenes'
// paths.
func (s *Scene) followRename(oldPath, newName string) ([]string, error) {
	if s.call == nil || s.call.Env.ProjectDir == "" {
		return nil, nil
	}
	g, err := deps.Shared(s.call.Env.ProjectDir).Graph(s.ctx)
	if err != nil {
		return nil, nil
	}
	// Every scene that reaches this one through instancing.
	seen := map[string]bool{s.Path: true}
	queue := []string{s.Path}
	var users []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, r := range g.UsedBy(p) {
			if !strings.HasSuffix(r.From, ".tscn") || seen[r.From] {
				continue
			}
			seen[r.From] = true
			users = append(users, r.From)
			queue = append(queue, r.From)
		}
	}
	sort.Strings(users)
	updated := []string{}
	for i, u := range users {
		if err := sdk.Interrupted(s.ctx, i); err != nil {
			return nil, err
		}
		f := s.follower(u)
		if f == nil {
			continue
		}
		// The tree is read from the files as they are: this scene still
		// has the old name there.
		tr, err := f.doc.Tree(s.loader())
		if err != nil {
			continue
		}
		var at []string
		for _, n := range tr.All() {
			if n.Scene() == s.Path && n.InnerPath() == oldPath {
				at = append(at, n.Path())
			}
		}
		changed := false
		for _, p := range at {
			changed = f.doc.FollowRename(p, newName) || changed
		}
		if changed {
			s.addFollower(f)
			updated = append(updated, u)
		}
	}
	return updated, nil
}

// follower returns the scene at p as an earlier rename of the call left
// it, or as read; nil when it cannot be read as a scene.
func (s *Scene) follower(p string) *follower {
	for _, f := range s.follow {
		if f.path == p {
			return f
		}
	}
	fi, err := s.ws.Read(s.ctx, p)
	if err != nil {
		return nil
	}
	doc, err := godot.ParseFile(p, fi.Data)
	if err != nil || !doc.IsScene() || doc.Root() == nil {
		return nil
	}
	doc.SetFloatStyle(s.ws.FloatStyle(s.ctx))
	return &follower{path: p, doc: doc, version: fi.Version}
}

func (s *Scene) addFollower(f *follower) {
	for _, o := range s.follow {
		if o == f {
			return
		}
	}
	s.follow = append(s.follow, f)
}
