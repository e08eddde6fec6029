package classdoc

import (
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The engine's own form of the class reference: doc/classes/*.xml and
// modules/*/doc_classes/*.xml in Godot's sources, one class per file.

type xmlClass struct {
	Name    string `xml:"name,attr"`
	Brief   string `xml:"brief_description"`
	Methods []struct {
		Name        string `xml:"name,attr"`
		Description string `xml:"description"`
		Params      []struct {
			Index int    `xml:"index,attr"`
			Name  string `xml:"name,attr"`
		} `xml:"param"`
	} `xml:"methods>method"`
	Members []struct {
		Name   string `xml:"name,attr"`
		Setter string `xml:"setter,attr"`
		Getter string `xml:"getter,attr"`
	} `xml:"members>member"`
}

// ParseXML reads one class file of the engine's class reference. Property
// setters that are not also methods take one argument named "value", as
// the published reference names them; getters none.
func ParseXML(data []byte) (Class, error) {
	var x xmlClass
	if err := xml.Unmarshal(data, &x); err != nil {
		return Class{}, err
	}
	if x.Name == "" {
		return Class{}, fmt.Errorf("classdoc: not a class reference file (no <class name>)")
	}
	c := Class{Name: x.Name, Brief: plainBBCode(x.Brief), Methods: map[string][]string{}, MethodBriefs: map[string]string{}, Accessors: map[string][]string{}}
	for _, m := range x.Methods {
		names := make([]string, len(m.Params))
		for i, p := range m.Params {
			if p.Index >= 0 && p.Index < len(names) {
				names[p.Index] = p.Name
			} else {
				names[i] = p.Name
			}
		}
		c.Methods[m.Name] = names
		if d := plainBBCode(m.Description); d != "" && !strings.HasPrefix(d, "Deprecated") {
			c.MethodBriefs[m.Name] = FirstSentence(d)
		}
	}
	for _, p := range x.Members {
		if _, ok := c.Methods[p.Setter]; p.Setter != "" && !ok {
			c.Accessors[p.Setter] = []string{"value"}
		}
		if _, ok := c.Methods[p.Getter]; p.Getter != "" && !ok {
			c.Accessors[p.Getter] = nil
		}
	}
	return c, nil
}

var (
	bbMethod = regexp.MustCompile(`\[(?:method|constructor|operator) ([^\]\s]+)\]`)
	bbRef    = regexp.MustCompile(`\[(?:member|signal|constant|enum|param|theme_item|annotation) ([^\]\s]+)\]`)
	bbURL    = regexp.MustCompile(`\[url=[^\]]*\]([^\[]*)\[/url\]`)
	bbStyle  = regexp.MustCompile(`\[/?(?:b|i|u|s|code|codeblock|codeblocks|kbd|center|br|lb|rb|gdscript|csharp)\]`)
	bbClass  = regexp.MustCompile(`\[([A-Z@][A-Za-z0-9_]*)\]`)
)

// plainBBCode turns the reference's BBCode into plain text, as the
// published reference renders it: "[method move_and_slide]" is
// "move_and_slide()", "[Node2D]" is "Node2D".
func plainBBCode(s string) string {
	s = bbMethod.ReplaceAllString(s, "$1()")
	s = bbRef.ReplaceAllString(s, "$1")
	s = bbURL.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("[lb]", "[", "[rb]", "]").Replace(bbStyle.ReplaceAllStringFunc(s, func(tag string) string {
		if tag == "[lb]" || tag == "[rb]" {
			return tag
		}
		return ""
	}))
	s = bbClass.ReplaceAllString(s, "$1")
	return strings.Join(strings.Fields(s), " ")
}

// ReadXMLDir parses every class file under dir: a Godot source checkout's
// root (doc/classes and modules/*/doc_classes are searched) or a directory
// of class files.
func ReadXMLDir(dir string) (map[string]Class, error) {
	out := map[string]Class{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if strings.Contains(rel, "/") && !strings.HasPrefix(rel, "doc/classes/") && !(strings.HasPrefix(rel, "modules/") && strings.Contains(rel, "/doc_classes/")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		c, err := ParseXML(b)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out[c.Name] = c
		return nil
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("classdoc: no class reference XML under %s; pass a Godot source checkout or its doc/classes", dir)
	}
	return out, err
}

// Overlay returns base with every class of over replacing base's: a newer
// reference over an older one.
func Overlay(base, over map[string]Class) map[string]Class {
	out := make(map[string]Class, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}
