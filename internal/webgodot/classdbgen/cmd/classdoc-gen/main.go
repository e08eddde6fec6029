// Command classdoc-gen builds the class reference table embedded in
// sdk/godot/classdb (argument names and class briefs) from Godot's class
// reference: the engine's XML (-xml, a Godot source checkout) or the
// reStructuredText the documentation publishes from it (-classes, the
// classes directory of godot-docs), or both, the XML overriding class by
// class. See package classdoc for the exact command and the source
// version of the embedded table.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/webgodot/classdbgen/classdoc"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	dir := flag.String("classes", "", "the classes directory of a godot-docs checkout (class_*.rst)")
	xmlDir := flag.String("xml", "", "a Godot source checkout (doc/classes, modules/*/doc_classes) or a directory of class XML files")
	source := flag.String("source", "", "what the reference is and which version, recorded in the table")
	out := flag.String("o", "sdk/godot/classdb/godot-4.6.classdoc", "output file")
	verbose := flag.Bool("v", false, "list the methods left unnamed")
	flag.Parse()
	if (*dir == "" && *xmlDir == "") || *source == "" {
		fmt.Fprintln(os.Stderr, "classdoc-gen: pass -xml DIR or -classes DIR (or both), and -source TEXT")
		os.Exit(2)
	}
	if err := run(*dir, *xmlDir, *source, *out, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "classdoc-gen:", err)
		os.Exit(1)
	}
}

func run(dir, xmlDir, source, out string, verbose bool) error {
	ref := map[string]classdoc.Class{}
	if dir != "" {
		rst, err := classdoc.ReadDir(dir)
		if err != nil {
			return err
		}
		ref = rst
	}
	if xmlDir != "" {
		x, err := classdoc.ReadXMLDir(xmlDir)
		if err != nil {
			return err
		}
		ref = classdoc.Overlay(ref, x)
	}
	db, err := classdb.Embedded()
	if err != nil {
		return err
	}
	docs, st := classdoc.Build(db, ref)
	info := classdb.DocsInfo{
		Engine:    db.Provenance().Engine,
		Source:    source,
		Generator: "go run ./internal/webgodot/classdbgen/cmd/classdoc-gen [-xml GODOT] [-classes GODOT_DOCS/classes] -source TEXT -o " + out,
	}
	data := classdb.EncodeDocs(info, docs)
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("classdoc-gen: %s: %s; %d bytes\n", out, st, len(data))
	if verbose {
		fmt.Println("other argument count:\n  " + strings.Join(st.Mismatched, "\n  "))
		fmt.Println("not in the reference:\n  " + strings.Join(st.Missing, "\n  "))
	}
	return nil
}
