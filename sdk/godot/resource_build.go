package godot

// Structural validation of resource and scene files while they are parsed.

// fileBuilder validates the section structure while the document is parsed.
type fileBuilder struct {
	f           *File
	stage       int // 1: ext resources, 2: sub resources, 3: body
	sawResource bool
	nodes       int
	extIDs      map[string]bool
	subIDs      map[string]bool
}

func idOf(v Value) (string, bool) {
	switch x := v.(type) {
	case String:
		return string(x), true
	case Int:
		return itoa(int(x)), true
	}
	return "", false
}

func (b *fileBuilder) require(s *Section, off int, names ...string) *parseError {
	for _, n := range names {
		if _, ok := s.Field(n); !ok {
			return errAt(off, "[%s] is missing its %q field", s.tag, n)
		}
	}
	return nil
}

func (b *fileBuilder) requireString(s *Section, off int, names ...string) *parseError {
	if err := b.require(s, off, names...); err != nil {
		return err
	}
	for _, n := range names {
		v, _ := s.Field(n)
		if _, ok := v.(String); !ok {
			return errAt(off, "field %q of [%s] must be a string, found %s", n, s.tag, v.Kind())
		}
	}
	return nil
}

func (b *fileBuilder) tag(s *Section, off int) *parseError {
	f := b.f
	if f.header == nil {
		switch s.tag {
		case "gd_scene":
			f.scene = true
		case "gd_resource":
			if err := b.requireString(s, off, "type"); err != nil {
				return err
			}
		default:
			return errAt(off, "expected a [gd_scene] or [gd_resource] file header, found [%s]", s.tag)
		}
		if v, ok := s.Field("format"); ok {
			n, isInt := v.(Int)
			if !isInt {
				return errAt(off, "field \"format\" of [%s] must be an integer, found %s", s.tag, v.Kind())
			}
			if n > 4 {
				return errAt(off, "file was saved with format=%d by a newer Godot; formats up to 4 can be read", n)
			}
		}
		s.kind = secHeader
		f.header = s
		b.stage = 1
		return nil
	}
	if b.sawResource {
		return errAt(off, "unexpected [%s] after the [resource] section, which must be last", s.tag)
	}
	switch s.tag {
	case "gd_scene", "gd_resource":
		return errAt(off, "unexpected second file header [%s]", s.tag)
	case "ext_resource":
		if b.stage > 1 {
			return errAt(off, "[ext_resource] must come before any [sub_resource], [node] or [resource] section")
		}
		if err := b.require(s, off, "type", "path", "id"); err != nil {
			return err
		}
		v, _ := s.Field("id")
		id, ok := idOf(v)
		if !ok {
			return errAt(off, "field \"id\" of [ext_resource] must be a string, found %s", v.Kind())
		}
		if b.extIDs[id] {
			return errAt(off, "duplicate [ext_resource] id %q", id)
		}
		b.extIDs[id] = true
		s.kind = secExt
	case "sub_resource":
		if b.stage > 2 {
			return errAt(off, "[sub_resource] must come before any [node] or [resource] section")
		}
		if err := b.require(s, off, "type", "id"); err != nil {
			return err
		}
		v, _ := s.Field("id")
		id, ok := idOf(v)
		if !ok {
			return errAt(off, "field \"id\" of [sub_resource] must be a string, found %s", v.Kind())
		}
		if b.subIDs[id] {
			return errAt(off, "duplicate [sub_resource] id %q", id)
		}
		b.subIDs[id] = true
		b.stage = 2
		s.kind = secSub
	case "resource":
		if f.scene {
			return errAt(off, "[resource] section in a [gd_scene] file; only resource files have one")
		}
		b.sawResource = true
		b.stage = 3
		s.kind = secResource
	case "node":
		if !f.scene {
			return errAt(off, "[node] section in a [gd_resource] file; only scenes have nodes")
		}
		if err := b.requireString(s, off, "name"); err != nil {
			return err
		}
		if v, ok := s.Field("parent"); ok {
			if _, isStr := v.(String); !isStr {
				return errAt(off, "field \"parent\" of [node] must be a string, found %s", v.Kind())
			}
		} else if b.nodes > 0 {
			return errAt(off, "[node] %q has no \"parent\" field; only the first node (the root) may omit it", s.fieldString("name"))
		}
		b.nodes++
		b.stage = 3
		s.kind = secNode
	case "connection":
		if !f.scene {
			return errAt(off, "[connection] section in a [gd_resource] file; only scenes have connections")
		}
		if err := b.requireString(s, off, "signal", "from", "to", "method"); err != nil {
			return err
		}
		b.stage = 3
		s.kind = secConnection
	case "editable":
		if !f.scene {
			return errAt(off, "[editable] section in a [gd_resource] file; only scenes have them")
		}
		if err := b.requireString(s, off, "path"); err != nil {
			return err
		}
		b.stage = 3
		s.kind = secEditable
	default:
		return errAt(off, "unknown section [%s]", s.tag)
	}
	return nil
}

func (b *fileBuilder) entry(s *Section, key string, off int) *parseError {
	if s == nil {
		return errAt(off, "property %q before the [gd_scene] or [gd_resource] header", key)
	}
	switch s.kind {
	case secSub, secResource, secNode:
		return nil
	}
	return errAt(off, "property %q is not allowed after [%s]; only [sub_resource], [resource] and [node] have properties", key, s.tag)
}

func (b *fileBuilder) ref(sub bool, id string, off int) *parseError {
	if b.f.header == nil {
		return nil // the statement itself is misplaced; that error wins
	}
	if sub {
		if !b.subIDs[id] {
			return errAt(off, "SubResource(%q) does not match any [sub_resource] declared before it", id)
		}
		return nil
	}
	if !b.extIDs[id] {
		return errAt(off, "ExtResource(%q) does not match any [ext_resource] id", id)
	}
	return nil
}
