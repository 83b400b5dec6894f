//go:build !linux || noreactor

package reactor

import "errors"

// poller is Linux's epoll; elsewhere, or built with the noreactor tag,
// there is none, theReactor returns nil and the client reads every stream
// through net/http. These stand-ins are never called.
type poller struct{}

var errNoPoller = errors.New("the stream reactor needs Linux")

func newPoller() (*poller, error)                    { return nil, errNoPoller }
func (p *poller) add(int) error                      { return errNoPoller }
func (p *poller) remove(int)                         {}
func (p *poller) watch(int, bool)                    {}
func (p *poller) wake()                              {}
func (p *poller) run(func(int, uint32) bool, func()) {}
func writeFD(int, []byte, int) (int, error)          { return 0, errNoPoller }
func closeFD(int)                                    {}
func dupFD(int) (int, error)                         { return -1, errNoPoller }

const pollFailed, pollEnded = 0, 0
