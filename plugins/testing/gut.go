package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Summary is what GUT's end-of-run report says. GUT prints, after "= Run
// Summary": each script with non-passing tests (a res:// path), its tests
// ("- test_name") and their "[Failed]:"/"[Pending]:" texts, then "Totals"
// with one "Label  count" line each ("Scripts:", "Passing Tests", "Failing
// Tests", "Risky Tests", "Pending Tests", "Asserts:  n of m passed"; GUT 7
// for Godot 3 spells some of them "Tests:", "Passing tests", "Pending:").
type Summary struct {
	Found        bool      `json:"found" jsonschema:"GUT printed its totals"`
	Scripts      int       `json:"scripts"`
	Tests        int       `json:"tests,omitempty"`
	Passing      int       `json:"passing_tests"`
	Failing      int       `json:"failing_tests"`
	Risky        int       `json:"risky_tests,omitempty"`
	Pending      int       `json:"pending_tests,omitempty"`
	AssertsOK    int       `json:"asserts_passed"`
	AssertsTotal int       `json:"asserts_total"`
	Failures     []Failure `json:"failures" jsonschema:"failing tests, in the order GUT listed them"`
}

// Failure is one failed assertion of a test.
type Failure struct {
	Script  string `json:"script" jsonschema:"res:// test script (and inner class)"`
	Test    string `json:"test"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty" jsonschema:"line in the test script, when GUT printed it"`
}

var (
	ansi       = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
	totalRE    = regexp.MustCompile(`^\s*\x1f?(Scripts|Tests|Passing [Tt]ests|Failing [Tt]ests|Risky [Tt]ests|Pending [Tt]ests|Risky/Pending|Pending|Asserts):?\s+(\d+)(?:\s+of\s+(\d+)\s+passed|/(\d+))?\s*$`)
	scriptRE   = regexp.MustCompile(`^(res://\S+\.gd)(\.\S+)?\s*$`)
	testRE     = regexp.MustCompile(`^\s*- (\S+)\s*$`)
	failedRE   = regexp.MustCompile(`^\s*\[Failed\]:\s*(.*)$`)
	atLineRE   = regexp.MustCompile(`(?i)\bat line (\d+)`)
	maxFailure = 500
)

// ParseGUT reads GUT's output.
func ParseGUT(out string) Summary {
	s := Summary{Failures: []Failure{}}
	inSummary := false
	var script, test string
	var last *Failure
	for line := range strings.Lines(out) {
		if strings.IndexByte(line, 0x1b) >= 0 {
			line = ansi.ReplaceAllString(line, "")
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "= Run Summary") {
			inSummary = true
			s.Failures = s.Failures[:0]
			continue
		}
		if !inSummary {
			continue
		}
		if m := totalRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			switch strings.ToLower(m[1]) {
			case "scripts":
				s.Scripts, s.Found = n, true
			case "tests":
				s.Tests = n
			case "passing tests":
				s.Passing = n
			case "failing tests":
				s.Failing = n
			case "risky tests":
				s.Risky = n
			case "pending tests", "pending", "risky/pending":
				s.Pending = n
			case "asserts":
				// "n of m passed" (GUT 7, 9.0) or "n/m" (GUT 9.6).
				s.AssertsOK = n
				s.AssertsTotal, _ = strconv.Atoi(m[3] + m[4])
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "res://") && scriptRE.MatchString(line):
			script, test, last = strings.TrimSpace(line), "", nil
		case testRE.MatchString(line):
			test, last = testRE.FindStringSubmatch(line)[1], nil
		case failedRE.MatchString(line):
			if len(s.Failures) < maxFailure {
				s.Failures = append(s.Failures, Failure{Script: script, Test: test, Message: strings.TrimSpace(failedRE.FindStringSubmatch(line)[1])})
				last = &s.Failures[len(s.Failures)-1]
				if m := atLineRE.FindStringSubmatch(line); m != nil {
					last.Line, _ = strconv.Atoi(m[1])
				}
			}
		case last != nil && strings.TrimSpace(line) != "":
			// GUT puts "at line N" on the line after the failure text.
			if m := atLineRE.FindStringSubmatch(line); m != nil && last.Line == 0 {
				last.Line, _ = strconv.Atoi(m[1])
			}
		}
	}
	return s
}

var (
	gutTestRE   = regexp.MustCompile(`^\s*\* (\S+)\s*$`)
	gutStatusRE = regexp.MustCompile(`^\s*\[(Failed|Pending|Risky|Error)\]:\s*(.*)$`)
	maxTests    = 5000
)

// ParseGUTTests reads GUT's per-test lines, before its run summary: each
// script (a res:// line), its tests ("* test_name"), and under a test the
// "[Failed]:", "[Pending]:", "[Risky]:" or "[Error]:" lines with the
// "at line N" GUT adds when the engine gave it one (a debug build).
func ParseGUTTests(out string) []TestCase {
	tests := []TestCase{}
	var script string
	var cur *TestCase
	for line := range strings.Lines(out) {
		if strings.IndexByte(line, 0x1b) >= 0 {
			line = ansi.ReplaceAllString(line, "")
		}
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "= Run Summary") {
			break
		}
		switch {
		case strings.HasPrefix(line, "res://") && scriptRE.MatchString(line):
			script, cur = strings.TrimSpace(line), nil
		case script != "" && gutTestRE.MatchString(line):
			if len(tests) >= maxTests {
				cur = nil
				continue
			}
			tests = append(tests, TestCase{Suite: script, Name: gutTestRE.FindStringSubmatch(line)[1], Status: "passed"})
			cur = &tests[len(tests)-1]
		case cur != nil && gutStatusRE.MatchString(line):
			m := gutStatusRE.FindStringSubmatch(line)
			msg := strings.TrimSpace(m[2])
			status := map[string]string{"Failed": "failed", "Pending": "skipped", "Risky": "passed", "Error": "error"}[m[1]]
			// A failure outranks a pending or risky note of the same test.
			if cur.Status == "passed" || status == "failed" || status == "error" {
				if cur.Status != "failed" && cur.Status != "error" {
					cur.Status = status
					cur.Message = msg
				} else if status == "failed" || status == "error" {
					cur.Message += "; " + msg
				}
			}
			if status == "failed" || status == "error" {
				if n := atLine(line); n > 0 && cur.LineOf == "" {
					cur.Location, cur.LineOf = fmt.Sprintf("%s:%d", scriptFile(script), n), "assert"
				}
			}
		case cur != nil && (cur.Status == "failed" || cur.Status == "error") && cur.LineOf == "":
			if n := atLine(line); n > 0 {
				cur.Location, cur.LineOf = fmt.Sprintf("%s:%d", scriptFile(script), n), "assert"
			}
		}
	}
	return tests
}

// atLine is N of "at line N", 0 when absent or not positive (GUT prints
// "at line -1" when the engine gave no stack: a release build).
func atLine(s string) int {
	m := atLineRE.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// scriptFile drops GUT's ".InnerClass" from a script name.
func scriptFile(script string) string {
	if i := strings.Index(script, ".gd"); i >= 0 {
		return script[:i+3]
	}
	return script
}

// locateTests fills in the location of tests that have none from the
// test function's line in the script (inner class aware).
func locateTests(root string, tests []TestCase) {
	sources := map[string][]string{}
	for i := range tests {
		tc := &tests[i]
		if tc.LineOf != "" {
			continue
		}
		file := scriptFile(tc.Suite)
		if !strings.HasPrefix(file, "res://") {
			continue
		}
		lines, ok := sources[file]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(file, "res://"))))
			if err == nil {
				lines = strings.Split(string(b), "\n")
			}
			sources[file] = lines
		}
		inner := ""
		if rest := strings.TrimPrefix(strings.TrimPrefix(tc.Suite, file), "."); rest != "" {
			inner = rest
		}
		if n := funcLine(lines, inner, tc.Name); n > 0 {
			tc.Location, tc.LineOf = fmt.Sprintf("%s:%d", file, n), "function"
		}
	}
}

var funcRE = regexp.MustCompile(`^\s*(?:static\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
var classRE = regexp.MustCompile(`^class\s+([A-Za-z_][A-Za-z0-9_]*)`)

// funcLine is the 1-based line of "func name(" in the script, inside the
// inner class when inner is not "".
func funcLine(lines []string, inner, name string) int {
	in := inner == ""
	for i, l := range lines {
		if m := classRE.FindStringSubmatch(l); m != nil {
			in = m[1] == inner
			continue
		}
		if !in {
			continue
		}
		if m := funcRE.FindStringSubmatch(l); m != nil && m[1] == name {
			return i + 1
		}
	}
	return 0
}
