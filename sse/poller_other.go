//go:build !linux

package sse

import "errors"

// poller is Linux's epoll; elsewhere the client reads every stream through
// net/http.
type poller struct{}

var errNoPoller = errors.New("the stream reactor needs Linux")

func newPoller() (*poller, error)           { return nil, errNoPoller }
func (p *poller) add(int) error             { return errNoPoller }
func (p *poller) remove(int)                {}
func (p *poller) wake()                     {}
func (p *poller) run(func(int), func())     {}
func readFD(int, []byte) (int, bool, error) { return 0, false, errNoPoller }
func writeFD(int, []byte, int) error        { return errNoPoller }
func closeFD(int)                           {}
func dupFD(int) (int, error)                { return -1, errNoPoller }
