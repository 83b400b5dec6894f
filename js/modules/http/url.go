package k6http

import (
	"errors"
	"strconv"
	"strings"

	"github.com/grafana/sobek"
)

// urlTemplate is what the http.url tagged template returns: the URL and
// its name tag, the template with each ${…} written as "${}", so that
// requests to /posts/1 and /posts/2 share the name /posts/${}.
type urlTemplate struct {
	URL  string `js:"url"`
	Name string `js:"name"`
}

// String returns the URL, so the value also works where a string does.
func (u *urlTemplate) String() string { return u.URL }

// url is http.url`…`, called with the template's strings and its
// substitutions; anything else throws.
func (h *HTTP) url(call sobek.FunctionCall) sobek.Value {
	rt := h.vu.Runtime()
	u, err := taggedURL(call)
	if err != nil {
		panic(rt.NewGoError(err))
	}
	return rt.ToValue(u)
}

// taggedURL reads the template's strings and substitutions.
func taggedURL(call sobek.FunctionCall) (*urlTemplate, error) {
	obj, ok := call.Argument(0).(*sobek.Object)
	if !ok || obj.Get("raw") == nil {
		return nil, errors.New("k6/http: url must be used as a tagged template: http.url`https://host/${id}`")
	}
	n := int(obj.Get("length").ToInteger())
	var name, url strings.Builder
	for i := range n {
		s := obj.Get(strconv.Itoa(i)).String()
		name.WriteString(s)
		url.WriteString(s)
		if i+1 < n {
			name.WriteString("${}")
			url.WriteString(call.Argument(i + 1).String())
		}
	}
	return &urlTemplate{URL: url.String(), Name: name.String()}, nil
}
