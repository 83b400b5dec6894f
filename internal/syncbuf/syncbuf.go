// Package syncbuf is a bytes.Buffer that goroutines may write while
// another reads it: the log of a server or an output under test.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects bytes written from any goroutine.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
