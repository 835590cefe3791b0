package web

import (
	"embed"
	"net/http"
	"path"
)

// The page: plain HTML, CSS and JavaScript, embedded, no build step.
//
//go:embed static/index.html static/style.css static/app.js static/cards.js static/icon.svg
var static embed.FS

// staticTypes are the page's files by the name they are served under,
// with their types.
var staticTypes = map[string]string{
	"":          "text/html; charset=utf-8",
	"style.css": "text/css; charset=utf-8",
	"app.js":    "text/javascript; charset=utf-8",
	"cards.js":  "text/javascript; charset=utf-8",
	"icon.svg":  "image/svg+xml",
}

// serveStatic answers a request for one of the page's files (name is the
// path after the token); anything else is not found.
func serveStatic(w http.ResponseWriter, r *http.Request, name string) {
	typ, ok := staticTypes[name]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	file := name
	if file == "" {
		file = "index.html"
	}
	b, err := static.ReadFile(path.Join("static", file))
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", typ)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}
