package mock

import "io"

// writer puts a stream's events on the wire: each event is written and
// flushed at once, or, under the buffered fault (batch > 0), held and
// written in batches of exactly batch bytes, the rest at the end, the way a
// buffering proxy passes a stream on.
type writer struct {
	w     io.Writer
	flush func() error
	batch int
	held  []byte
}

// event sends (or holds) the bytes of one event.
func (w *writer) event(p []byte) error {
	if w.batch <= 0 {
		if _, err := w.w.Write(p); err != nil {
			return err
		}
		return w.flush()
	}
	w.held = append(w.held, p...)
	for len(w.held) >= w.batch {
		if err := w.send(w.held[:w.batch]); err != nil {
			return err
		}
		w.held = w.held[:copy(w.held, w.held[w.batch:])]
	}
	return nil
}

// close sends whatever is held.
func (w *writer) close() error {
	if len(w.held) == 0 {
		return nil
	}
	err := w.send(w.held)
	w.held = w.held[:0]
	return err
}

// send writes p and flushes.
func (w *writer) send(p []byte) error {
	if _, err := w.w.Write(p); err != nil {
		return err
	}
	return w.flush()
}
