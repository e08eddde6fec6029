package godot

import (
	"slices"
	"strings"
)

// Project is a parsed project.godot: a ConfigFile plus the conventions of
// ProjectSettings. Setting names are "section/key" split at the first '/'
// ("application/config/name" is key "config/name" of [application]); names
// without a '/' live before any section ("config_version"). New sections are
// inserted in alphabetical order, as the editor writes them.
type Project struct {
	*ConfigFile
}

// ParseProject parses a project.godot file. Its edits spell floats the way
// the project's own Godot version does (Version; config_version=4 is a
// Godot 3 project), as that editor writes the file.
func ParseProject(name string, src []byte) (*Project, error) {
	c, err := ParseConfig(name, src)
	if err != nil {
		return nil, err
	}
	c.sortedSections = true
	p := &Project{ConfigFile: c}
	c.SetFloatStyle(FloatStyleFor(p.GodotVersion()))
	return p, nil
}

// splitSetting splits a setting name at its first '/'.
func splitSetting(name string) (section, key string) {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

func joinSetting(section, key string) string {
	if section == "" {
		return key
	}
	return section + "/" + key
}

// Setting returns a project setting, e.g. Setting("application/run/main_scene").
func (p *Project) Setting(name string) (Value, bool) {
	return p.Get(splitSetting(name))
}

// SetSetting sets a project setting.
func (p *Project) SetSetting(name string, v Value) {
	section, key := splitSetting(name)
	p.Set(section, key, v)
}

// SetSettingOrdered is SetSetting that puts a setting the file does not
// have yet where ProjectSettings would save it: rank gets full setting
// names (classdb's DB.SettingRank gives the engine's order).
func (p *Project) SetSettingOrdered(name string, v Value, rank func(setting string) int) {
	section, key := splitSetting(name)
	p.SetOrdered(section, key, v, func(k string) int { return rank(joinSetting(section, k)) })
}

// ClearSetting removes a project setting (reverting it to the engine's
// default) and reports whether it was set.
func (p *Project) ClearSetting(name string) bool {
	return p.Clear(splitSetting(name))
}

// Settings returns the names of all settings in file order.
func (p *Project) Settings() []string {
	var out []string
	for _, sec := range p.Sections() {
		for _, k := range p.Keys(sec) {
			out = append(out, joinSetting(sec, k))
		}
	}
	return out
}

const featuresSetting = "application/config/features"

// Features returns application/config/features, e.g. ["4.7", "Forward Plus"].
func (p *Project) Features() []string {
	v, _ := p.Setting(featuresSetting)
	if fs, ok := v.(PackedStringArray); ok {
		return slices.Clone(fs)
	}
	return nil
}

// versionPrefix returns the leading "<major>.<minor>" of s, or "".
func versionPrefix(s string) string {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '.' {
		return ""
	}
	j := i + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i+1 {
		return ""
	}
	return s[:j]
}

// Version returns the "<major>.<minor>" of the Godot editor that last saved
// the project, from the first version-like entry of config/features (the
// editor rewrites that list on every save), or "" when there is none.
func (p *Project) Version() string {
	for _, f := range p.Features() {
		if v := versionPrefix(f); v != "" {
			return v
		}
	}
	return ""
}

// GodotVersion is the Godot version the project is for, as version
// constraints read it: Version, or "3" for a Godot 3 project (its
// project.godot says config_version=4 and names no version, and Godot 4
// writes 5), or "" when unknown.
func (p *Project) GodotVersion() string {
	if v := p.Version(); v != "" {
		return v
	}
	if p.ConfigVersion() == 4 {
		return "3"
	}
	return ""
}

// ConfigVersion returns the project.godot format number (config_version):
// 4 for files written by Godot 3.x, 5 for Godot 4.x; 0 when absent.
func (p *Project) ConfigVersion() int {
	v, ok := p.Get("", "config_version")
	if !ok {
		return 0
	}
	if n, ok := v.(Int); ok {
		return int(n)
	}
	return 0
}

// SetVersion records version (e.g. "4.7") in config/features the way the
// editor does on save: other version entries are dropped and the list is
// sorted. Later edits spell floats as that version does.
func (p *Project) SetVersion(version string) {
	fs := slices.DeleteFunc(p.Features(), func(f string) bool { return versionPrefix(f) != "" })
	fs = append(fs, version)
	slices.Sort(fs)
	p.SetSetting(featuresSetting, PackedStringArray(fs))
	p.SetFloatStyle(FloatStyleFor(version))
}
