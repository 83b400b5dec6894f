package sse

import "unsafe"

// Bounds of the chunks textBuf appends into once its contiguous start is
// full: an eighth of the text so far, between 512 bytes and 4 MiB, so
// that the unused end of the last chunk stays small.
const (
	minTextChunk = 512
	maxTextChunk = 4 << 20
)

// textBuf accumulates a stream's visible text (or reasoning) without the
// copies of a growing strings.Builder: its start is one contiguous slice
// that String shares, what comes after it goes into chunks that never move,
// and Final joins them once, into a string of the exact size. A stream
// whose predicates read the text at each event (String) grows as a
// Builder does; once they stop, the text grows by chunks, and its memory
// stays close to its length until Final (the text and its joined copy,
// for a moment).
type textBuf struct {
	// flat is the text's start; String and Final share it, and bytes below
	// its length never change.
	flat []byte
	// tail is the rest of the text, in chunks.
	tail [][]byte
	n    int
}

// Len returns the text's length in bytes.
func (b *textBuf) Len() int { return b.n }

// WriteString appends s.
func (b *textBuf) WriteString(s string) {
	if s == "" {
		return
	}
	b.n += len(s)
	if len(b.tail) == 0 && cap(b.flat) == 0 {
		b.flat = make([]byte, 0, max(len(s), minTextChunk))
	}
	if len(b.tail) == 0 && len(s) <= cap(b.flat)-len(b.flat) {
		b.flat = append(b.flat, s...)
		return
	}
	if k := len(b.tail); k > 0 {
		last := b.tail[k-1]
		m := copy(last[len(last):cap(last)], s)
		b.tail[k-1], s = last[:len(last)+m], s[m:]
	}
	if s != "" {
		c := make([]byte, len(s), max(len(s), min(max(b.n/8, minTextChunk), maxTextChunk)))
		copy(c, s)
		b.tail = append(b.tail, c)
	}
}

// String returns the text so far. With chunks pending, it joins them
// into a new contiguous start with a quarter of room to grow (at least
// minTextChunk bytes in all), so that a
// caller reading the text at each append copies it a bounded number of
// times, as with a strings.Builder.
func (b *textBuf) String() string {
	if len(b.tail) > 0 {
		b.join(max(b.n+b.n/4, minTextChunk))
	}
	return unsafe.String(unsafe.SliceData(b.flat), len(b.flat))
}

// Final returns the whole text, joined once into a string of its exact
// size when chunks are pending.
func (b *textBuf) Final() string {
	if len(b.tail) > 0 {
		b.join(b.n)
	}
	return unsafe.String(unsafe.SliceData(b.flat), len(b.flat))
}

// join copies the text into a new start of capacity size (at least its
// length) and drops the chunks.
func (b *textBuf) join(size int) {
	flat := make([]byte, b.n, size)
	at := copy(flat, b.flat)
	for i, c := range b.tail {
		at += copy(flat[at:], c)
		b.tail[i] = nil // released as soon as it is copied
	}
	b.flat, b.tail = flat, nil
}
