// Command classdb-gen regenerates the class database embedded in
// sdk/godot/classdb from the real engine (Godot's web runtime in headless
// Chromium). Run it through go generate ./sdk/godot/classdb.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/classdbgen"
)

func main() {
	out := flag.String("o", "godot-4.6.json.gz", "output file")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "classdb-gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	setup, err := webgodot.Locate()
	if err != nil {
		return err
	}
	r, err := webgodot.New(setup)
	if err != nil {
		return err
	}
	defer r.Close()
	start := time.Now()
	raw, err := classdbgen.Dump(context.Background(), r)
	if err != nil {
		return err
	}
	st, err := classdbgen.Convert(raw)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := st.Encode(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("classdb-gen: %s: Godot %s, %d classes, %d settings, %d key names, %d bytes, in %s\n",
		out, st.Engine, len(st.Classes), len(st.Settings), len(st.Keys), buf.Len(), time.Since(start).Round(time.Millisecond))
	return nil
}
