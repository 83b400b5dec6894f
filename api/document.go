package api

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// apiError is one error of a JSON:API error document. k6-operator's client
// reads errors[0], so a document always holds one.
type apiError struct {
	Status string `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// writeError answers status with {"errors":[{status, title, detail}]}.
func writeError(w http.ResponseWriter, status int, title, detail string) {
	doc := struct {
		Errors []apiError `json:"errors"`
	}{[]apiError{{Status: strconv.Itoa(status), Title: title, Detail: detail}}}
	b, _ := json.Marshal(doc)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeJSON answers 200 with doc as JSON.
func writeJSON(w http.ResponseWriter, doc any) {
	b, err := json.Marshal(doc)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Encoding error", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(b)
}

// resource is a JSON:API resource object.
type resource[A any] struct {
	Type          string         `json:"type"`
	ID            string         `json:"id"`
	Attributes    A              `json:"attributes"`
	Relationships *relationships `json:"relationships,omitempty"`
}

// document is a JSON:API top-level document holding one resource or a
// list of them.
type document[D any] struct {
	Data D `json:"data"`
}
