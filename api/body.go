package api

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The largest request bodies the REST API reads. k6 reads them without a
// limit; these are far above what its clients send (k6-operator's starter
// PATCHes 90 bytes) and bound what one request can make the run hold.
const (
	// MaxSetupDataSize bounds the body of PUT /v1/setup: the setup data
	// every VU then decodes. 10 MiB.
	MaxSetupDataSize = 10 << 20
	// MaxStatusBodySize bounds the body of PATCH /v1/status. 64 KiB.
	MaxStatusBodySize = 64 << 10
)

// bodyReadTimeout bounds the reading of one request body, so that a
// client sending it slowly does not hold a reading slot.
const bodyReadTimeout = 30 * time.Second

// bodyReaders is how many requests read their body at once; the others
// wait for a slot. With MaxSetupDataSize it bounds the memory bodies take
// to under 100 MiB whatever the number of clients.
const bodyReaders = 4

// bodies hands out the reading slots of one API.
type bodies chan struct{}

func newBodies() bodies { return make(bodies, bodyReaders) }

// read returns r's body, at most limit bytes, or answers the request
// itself and returns ok false: 413 when the body is larger (announced by
// Content-Length or found while reading), 400 when it cannot be read.
func (b bodies) read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	if r.ContentLength > limit {
		tooLarge(w, r, limit)
		return nil, false
	}
	select {
	case b <- struct{}{}:
		defer func() { <-b }()
	case <-r.Context().Done():
		return nil, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyReadTimeout))
	defer func() { _ = rc.SetReadDeadline(time.Time{}) }()
	// Sized by Content-Length when there is one, so the buffer is
	// allocated once.
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+bytes.MinRead))
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		tooLarge(w, r, limit)
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, "Error reading request body", err.Error())
		return nil, false
	}
	return buf.Bytes(), true
}

// tooLarge answers 413 naming the limit.
func tooLarge(w http.ResponseWriter, r *http.Request, limit int64) {
	writeError(w, http.StatusRequestEntityTooLarge, "Request Entity Too Large",
		fmt.Sprintf("the body of %s %s is larger than its limit of %s", r.Method, r.URL.Path, sizeText(limit)))
}

// sizeText renders a size in bytes as KiB or MiB when it is a whole
// number of them.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
