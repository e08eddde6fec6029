package metrics

import (
	"net/http"

	"github.com/prometheus/common/expfmt"
)

// Handler serves the registry in the Prometheus text format (or
// OpenMetrics, if the scraper asks for it), narrowed per request by
// visibleFor: a scraper sees only the tools and toolsets its caller's
// policy shows. Authentication is the caller's job (the server wraps this
// handler in the same checks as its MCP endpoint).
func (r *Registry) Handler(visibleFor func(*http.Request) func(toolset, tool string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		fams, err := r.reg.Gather()
		if err != nil {
			http.Error(w, "Internal Server Error: gathering metrics: "+err.Error(), http.StatusInternalServerError)
			return
		}
		fams = Filter(fams, visibleFor(req))
		format := expfmt.NegotiateAccept(req.Header, expfmt.DefaultOpenMetricsAcceptedFormats()...)
		w.Header().Set("Content-Type", string(format))
		enc := expfmt.NewEncoder(w, format)
		for _, f := range fams {
			if err := enc.Encode(f); err != nil {
				return // the scraper went away
			}
		}
		if c, ok := enc.(expfmt.Closer); ok {
			_ = c.Close()
		}
	})
}
