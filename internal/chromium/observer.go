package chromium

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// flushTimeout bounds how long closing a page waits for its final web
// vitals: a page whose main thread is stuck gives none.
const flushTimeout = 3 * time.Second

// observer gathers one page's samples: its requests from the Network
// events, its web vitals from the in-page script, both in the order the
// browser sent them, and hands them to Options.Samples.
type observer struct {
	queue   *sampleQueue
	traffic *traffic
	vitals  *vitals
	// stopListening ends the protocol listener.
	stopListening context.CancelFunc
}

// observe makes the page report its samples when the browser has an
// Options.Samples sink; without one it does nothing. NewPage calls it once,
// before the page loads anything.
func (p *Page) observe(ctx context.Context) error {
	sink := p.context.browser.opts.Samples
	if sink == nil {
		return nil
	}
	o := &observer{traffic: newTraffic(), vitals: newVitals()}
	listening, stop := context.WithCancel(p.tab)
	o.stopListening = stop
	o.queue = newSampleQueue(p.tab, sink)
	err := chromedp.Listen(listening, o.handle)
	if err == nil {
		err = p.context.browser.run(ctx, p.tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			return o.vitals.install(ctx, t)
		}))
	}
	if err != nil {
		stop()
		o.queue.close()
		return fmt.Errorf("observing the page: %w", err)
	}
	p.observer = o
	return nil
}

// unobserve ends the page's observation before it closes: it asks the open
// document for its final web vitals (bounded by flushTimeout), reports the
// last provisional values of any document that did not answer, and
// delivers every sample still queued. When it returns the sink has seen
// the page's last sample. Page.Close calls it.
func (p *Page) unobserve() {
	o := p.observer
	if o == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	_ = p.context.browser.run(ctx, p.tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		final, err := o.vitals.flush(ctx, t)
		o.queue.push(final...)
		return err
	}))
	o.stopListening()
	o.queue.push(o.vitals.endAll()...)
	o.queue.close()
}

// handle takes one protocol event of the page. It runs in the loop that
// reads the browser's messages, so it only updates state and queues.
func (o *observer) handle(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		o.queue.push(o.traffic.requestWillBeSent(ev)...)
	case *network.EventRequestWillBeSentExtraInfo:
		o.traffic.requestWillBeSentExtraInfo(ev)
	case *network.EventResponseReceived:
		o.traffic.responseReceived(ev)
	case *network.EventRequestServedFromCache:
		o.traffic.requestServedFromCache(ev)
	case *network.EventLoadingFinished:
		o.queue.push(o.traffic.loadingFinished(ev)...)
	case *network.EventLoadingFailed:
		o.queue.push(o.traffic.loadingFailed(ev)...)
	case *runtime.EventBindingCalled:
		if s, ok := o.vitals.bindingCalled(ev); ok {
			o.queue.push(s)
		}
	case *runtime.EventExecutionContextCreated:
		o.vitals.contextCreated(ev)
	case *runtime.EventExecutionContextDestroyed:
		o.queue.push(o.vitals.contextDestroyed(ev.ExecutionContextUniqueID)...)
	case *runtime.EventExecutionContextsCleared:
		o.queue.push(o.vitals.contextsCleared()...)
	}
}
