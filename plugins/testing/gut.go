package main

import (
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
	totalRE    = regexp.MustCompile(`^\s*\x1f?(Scripts|Tests|Passing [Tt]ests|Failing [Tt]ests|Risky [Tt]ests|Pending [Tt]ests|Pending|Asserts):?\s+(\d+)(?:\s+of\s+(\d+)\s+passed)?\s*$`)
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
			case "pending tests", "pending":
				s.Pending = n
			case "asserts":
				s.AssertsOK = n
				s.AssertsTotal, _ = strconv.Atoi(m[3])
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
