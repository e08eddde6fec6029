// Package metrics counts what the tools cost: per tool and per toolset,
// calls, errors by code, latency, bytes in and out; per toolset, plugin
// starts, crashes, restarts and hot upgrades. The numbers live in one
// Prometheus registry (github.com/prometheus/client_golang), which serves
// two readers: operators scrape it at /metrics on the HTTP listener, and
// godot_get_server_info shows a Snapshot of it, both narrowed to what the
// caller's policy shows.
//
//	m := metrics.New()
//	t := m.Tool("scene_edit", "godot_scene_edit_create_node") // once per tool; cached
//	start := time.Now()
//	… run the call …
//	t.Observe(time.Since(start), code, bytesIn, bytesOut) // code "" for success
//	m.PluginEvent("scene_edit", metrics.PluginStart)
//	snap := m.Snapshot(func(toolset, tool string) bool { return true })
//
// # Cost
//
// Observe is on every call's path, so it touches only pre-resolved
// counters and histograms (atomic adds and a binary search over the
// bucket bounds): no label hashing, no allocation. The error counter of a
// code is resolved once per tool and code. docs/PERFORMANCE.md has the
// measured cost.
//
// # Percentiles
//
// Latency is kept in histograms with exponential buckets from 50 µs to
// 2 min (each bound 1.45 times the last). Snapshot's p50/p95/p99 are
// interpolated inside the bucket that holds the quantile, as Prometheus's
// histogram_quantile does, over the host's whole lifetime. The true value
// lies in the same bucket, so the estimate is off by less than a factor
// 1.46 (the ratio of a bucket's bounds).
package metrics

import (
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
)

// Plugin lifecycle events counted per toolset.
const (
	PluginStart         = "start"          // a start asked for (enable, host start)
	PluginCrash         = "crash"          // the process died while it should run
	PluginRestart       = "restart"        // restarted after a crash
	PluginUpgrade       = "upgrade"        // a new binary swapped in while serving
	PluginUpgradeFailed = "upgrade_failed" // a new binary refused; the old one serves on
)

var pluginEvents = []string{PluginStart, PluginCrash, PluginRestart, PluginUpgrade, PluginUpgradeFailed}

// LatencyBuckets are the histogram bounds in seconds (see the package doc).
var LatencyBuckets = prometheus.ExponentialBucketsRange(50e-6, 120, 40)

// Registry holds every metric of one host. It is safe for concurrent use.
type Registry struct {
	reg *prometheus.Registry

	calls     *prometheus.CounterVec
	errors    *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	bytesIn   *prometheus.CounterVec
	bytesOut  *prometheus.CounterVec
	tsLatency *prometheus.HistogramVec
	plugin    *prometheus.CounterVec

	mu       sync.RWMutex
	tools    map[string]*Tool // by exposed tool name
	toolsets map[string]prometheus.Histogram
}

// New returns an empty registry, with the Go runtime and process
// collectors registered beside the tool metrics.
func New() *Registry {
	r := &Registry{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "godot_mcp_tool_calls_total",
			Help: "Tool calls answered, by toolset and exposed tool name."}, []string{"toolset", "tool"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "godot_mcp_tool_errors_total",
			Help: "Tool calls answered with an error, by error code."}, []string{"toolset", "tool", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "godot_mcp_tool_call_duration_seconds",
			Help: "Time from receiving a tools/call to its answer, per tool.", Buckets: LatencyBuckets}, []string{"toolset", "tool"}),
		bytesIn: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "godot_mcp_tool_bytes_in_total",
			Help: "Bytes of tool arguments received (the JSON arguments object)."}, []string{"toolset", "tool"}),
		bytesOut: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "godot_mcp_tool_bytes_out_total",
			Help: "Bytes of tool results sent (text, image and structured content)."}, []string{"toolset", "tool"}),
		tsLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "godot_mcp_toolset_call_duration_seconds",
			Help: "Time from receiving a tools/call to its answer, per toolset.", Buckets: LatencyBuckets}, []string{"toolset"}),
		plugin: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "godot_mcp_plugin_events_total",
			Help: "Plugin lifecycle events: start, crash, restart, upgrade, upgrade_failed."}, []string{"toolset", "event"}),
		tools:    map[string]*Tool{},
		toolsets: map[string]prometheus.Histogram{},
	}
	r.reg.MustRegister(r.calls, r.errors, r.latency, r.bytesIn, r.bytesOut, r.tsLatency, r.plugin,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// Gatherer is the registry for an exposition handler (see Handler).
func (r *Registry) Gatherer() prometheus.Gatherer { return r.reg }

// Tool is one tool's pre-resolved metrics.
type Tool struct {
	r                *Registry
	toolset, name    string
	calls, in, out   prometheus.Counter
	latency, tsLaten prometheus.Observer

	errMu sync.RWMutex
	errs  map[string]prometheus.Counter
}

// Tool returns the metrics of the exposed tool name of toolset, creating
// them on first use. Callers may keep the result.
func (r *Registry) Tool(toolset, name string) *Tool {
	r.mu.RLock()
	t := r.tools[name]
	r.mu.RUnlock()
	if t != nil && t.toolset == toolset {
		return t
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if t = r.tools[name]; t != nil && t.toolset == toolset {
		return t
	}
	ts := r.toolsets[toolset]
	if ts == nil {
		ts = r.tsLatency.WithLabelValues(toolset).(prometheus.Histogram)
		r.toolsets[toolset] = ts
	}
	t = &Tool{r: r, toolset: toolset, name: name,
		calls: r.calls.WithLabelValues(toolset, name), in: r.bytesIn.WithLabelValues(toolset, name),
		out: r.bytesOut.WithLabelValues(toolset, name), latency: r.latency.WithLabelValues(toolset, name),
		tsLaten: ts, errs: map[string]prometheus.Counter{}}
	r.tools[name] = t
	return t
}

// Observe records one answered call: its duration, its error code ("" for
// success), and the bytes of its arguments and result.
func (t *Tool) Observe(d time.Duration, code string, bytesIn, bytesOut int) {
	sec := d.Seconds()
	t.calls.Inc()
	t.latency.Observe(sec)
	t.tsLaten.Observe(sec)
	if bytesIn > 0 {
		t.in.Add(float64(bytesIn))
	}
	if bytesOut > 0 {
		t.out.Add(float64(bytesOut))
	}
	if code != "" {
		t.errCounter(code).Inc()
	}
}

func (t *Tool) errCounter(code string) prometheus.Counter {
	t.errMu.RLock()
	c := t.errs[code]
	t.errMu.RUnlock()
	if c != nil {
		return c
	}
	t.errMu.Lock()
	defer t.errMu.Unlock()
	if c = t.errs[code]; c == nil {
		c = t.r.errors.WithLabelValues(t.toolset, t.name, code)
		t.errs[code] = c
	}
	return c
}

// PluginEvent counts one lifecycle event (Plugin*) of toolset's plugin.
func (r *Registry) PluginEvent(toolset, event string) {
	r.plugin.WithLabelValues(toolset, event).Inc()
}

// ToolStats are one tool's numbers in a Snapshot.
type ToolStats struct {
	Name     string         `json:"name"`
	Toolset  string         `json:"toolset"`
	Calls    uint64         `json:"calls"`
	Errors   map[string]int `json:"errors_by_code"`
	Latency  Latency        `json:"latency_ms"`
	BytesIn  uint64         `json:"bytes_in"`
	BytesOut uint64         `json:"bytes_out"`
}

// Latency are percentiles in milliseconds (see the package doc).
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// ToolsetStats are one toolset's numbers in a Snapshot: its tools' calls,
// errors and bytes summed, its latency over all of its calls, and its
// plugin's lifecycle counts.
type ToolsetStats struct {
	Name     string         `json:"name"`
	Calls    uint64         `json:"calls"`
	Errors   map[string]int `json:"errors_by_code"`
	Latency  Latency        `json:"latency_ms"`
	BytesIn  uint64         `json:"bytes_in"`
	BytesOut uint64         `json:"bytes_out"`
	Plugin   map[string]int `json:"plugin"` // start, crash, restart, upgrade, upgrade_failed
}

// Snapshot is what godot_get_server_info shows.
type Snapshot struct {
	Tools    []ToolStats    `json:"tools"`
	Toolsets []ToolsetStats `json:"toolsets"`
}

// Snapshot reads the current numbers of the tools and toolsets visible
// says yes to (tool is "" when asking about a toolset), sorted by name.
func (r *Registry) Snapshot(visible func(toolset, tool string) bool) Snapshot {
	fams, _ := r.reg.Gather()
	tools := map[string]*ToolStats{}
	sets := map[string]*ToolsetStats{}
	set := func(name string) *ToolsetStats {
		s := sets[name]
		if s == nil {
			s = &ToolsetStats{Name: name, Errors: map[string]int{}, Plugin: map[string]int{}}
			for _, ev := range pluginEvents {
				s.Plugin[ev] = 0
			}
			sets[name] = s
		}
		return s
	}
	tool := func(m *dto.Metric) *ToolStats {
		name, ts := label(m, "tool"), label(m, "toolset")
		if !visible(ts, name) {
			return nil
		}
		t := tools[name]
		if t == nil {
			t = &ToolStats{Name: name, Toolset: ts, Errors: map[string]int{}}
			tools[name] = t
			set(ts)
		}
		return t
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			switch f.GetName() {
			case "godot_mcp_tool_calls_total":
				if t := tool(m); t != nil {
					t.Calls = uint64(m.GetCounter().GetValue())
				}
			case "godot_mcp_tool_errors_total":
				if t := tool(m); t != nil {
					t.Errors[label(m, "code")] = int(m.GetCounter().GetValue())
				}
			case "godot_mcp_tool_bytes_in_total":
				if t := tool(m); t != nil {
					t.BytesIn = uint64(m.GetCounter().GetValue())
				}
			case "godot_mcp_tool_bytes_out_total":
				if t := tool(m); t != nil {
					t.BytesOut = uint64(m.GetCounter().GetValue())
				}
			case "godot_mcp_tool_call_duration_seconds":
				if t := tool(m); t != nil {
					t.Latency = latency(m.GetHistogram())
				}
			case "godot_mcp_toolset_call_duration_seconds":
				if ts := label(m, "toolset"); visible(ts, "") {
					set(ts).Latency = latency(m.GetHistogram())
				}
			case "godot_mcp_plugin_events_total":
				if ts := label(m, "toolset"); visible(ts, "") {
					set(ts).Plugin[label(m, "event")] = int(m.GetCounter().GetValue())
				}
			}
		}
	}
	snap := Snapshot{Tools: []ToolStats{}, Toolsets: []ToolsetStats{}}
	for _, t := range tools {
		s := set(t.Toolset)
		s.Calls += t.Calls
		s.BytesIn += t.BytesIn
		s.BytesOut += t.BytesOut
		for c, n := range t.Errors {
			s.Errors[c] += n
		}
		snap.Tools = append(snap.Tools, *t)
	}
	for _, s := range sets {
		snap.Toolsets = append(snap.Toolsets, *s)
	}
	sort.Slice(snap.Tools, func(i, j int) bool { return snap.Tools[i].Name < snap.Tools[j].Name })
	sort.Slice(snap.Toolsets, func(i, j int) bool { return snap.Toolsets[i].Name < snap.Toolsets[j].Name })
	return snap
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

func latency(h *dto.Histogram) Latency {
	return Latency{P50: quantile(h, 0.50), P95: quantile(h, 0.95), P99: quantile(h, 0.99)}
}

// quantile interpolates the q-quantile of h in milliseconds, linearly
// inside the bucket that holds it, as histogram_quantile does; 0 for an
// empty histogram. A quantile beyond the last bound reports that bound.
func quantile(h *dto.Histogram, q float64) float64 {
	total := h.GetSampleCount()
	if total == 0 {
		return 0
	}
	rank := q * float64(total)
	lower, below := 0.0, uint64(0)
	for _, b := range h.GetBucket() {
		upper, count := b.GetUpperBound(), b.GetCumulativeCount()
		if float64(count) >= rank {
			in := count - below
			v := upper
			if in > 0 && !math.IsInf(upper, 1) {
				v = lower + (upper-lower)*(rank-float64(below))/float64(in)
			}
			return round3(v * 1000)
		}
		lower, below = upper, count
	}
	bounds := h.GetBucket()
	return round3(bounds[len(bounds)-1].GetUpperBound() * 1000)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// Filter returns the families of fams whose metrics visible says yes to,
// judged by their "toolset" and "tool" labels; a metric without them (the
// Go runtime, the process) is kept. It is how /metrics shows a caller only
// what its policy shows.
func Filter(fams []*dto.MetricFamily, visible func(toolset, tool string) bool) []*dto.MetricFamily {
	out := make([]*dto.MetricFamily, 0, len(fams))
	for _, f := range fams {
		kept := slices.DeleteFunc(slices.Clone(f.GetMetric()), func(m *dto.Metric) bool {
			ts, tool := label(m, "toolset"), label(m, "tool")
			return ts != "" && !visible(ts, tool)
		})
		if len(kept) == 0 {
			continue
		}
		f.Metric = kept
		out = append(out, f)
	}
	return out
}
