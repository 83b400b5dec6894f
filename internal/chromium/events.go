package chromium

import (
	"context"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// maxResponses bounds how many document responses a page remembers.
const maxResponses = 16

// events keeps what the protocol events of a page tell of its main frame:
// the document it shows (its loader), the lifecycle events each document
// reached, the HTTP responses of documents and the same-document
// navigations. The tab's reader goroutine records them; waiters wake up on
// changed, which is closed and replaced at every change.
type events struct {
	mu        sync.Mutex
	frame     cdp.FrameID
	loader    cdp.LoaderID
	url       string
	reached   map[cdp.LoaderID]map[string]bool
	responses map[network.RequestID]*Response
	order     []network.RequestID
	sameDoc   int
	changed   chan struct{}
	gone      <-chan struct{}
	console   func(ConsoleMessage)
	dialogs   chan page.DialogType
}

// ConsoleMessage is one call of the page's console API.
type ConsoleMessage struct {
	// Type is the method called: "log", "info", "warning", "error", …
	Type string
	// Text is the arguments joined by spaces, as the console shows them.
	Text string
}

// watch starts recording the page's events and reads where its main
// frame stands now.
func (p *Page) watch(ctx context.Context) error {
	ev := &events{
		reached:   map[cdp.LoaderID]map[string]bool{},
		responses: map[network.RequestID]*Response{},
		changed:   make(chan struct{}),
		dialogs:   make(chan page.DialogType, 4),
	}
	p.st = &pageState{events: ev}
	if err := chromedp.Listen(p.tab, ev.record); err != nil {
		return err
	}
	gone, err := chromedp.Detached(p.tab)
	if err != nil {
		return err
	}
	ev.gone = gone
	go p.dismissDialogs()
	tree, err := call(ctx, p, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	if f := tree.FrameTree.Frame; f != nil {
		ev.mu.Lock()
		if ev.frame == "" {
			ev.frame, ev.loader, ev.url = f.ID, f.LoaderID, f.URL+f.URLFragment
		}
		ev.mu.Unlock()
	}
	return nil
}

// record is called on the tab's reader goroutine for every event: it must
// return at once and call nothing on the tab.
func (e *events) record(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame.ParentID != "" {
			return
		}
		e.frame, e.loader, e.url = ev.Frame.ID, ev.Frame.LoaderID, ev.Frame.URL+ev.Frame.URLFragment
		for l := range e.reached { // only the document shown now can still be awaited
			if l != e.loader {
				delete(e.reached, l)
			}
		}
	case *page.EventLifecycleEvent:
		if e.frame != "" && ev.FrameID != e.frame {
			return
		}
		if e.reached[ev.LoaderID] == nil {
			e.reached[ev.LoaderID] = map[string]bool{}
		}
		e.reached[ev.LoaderID][ev.Name] = true
	case *page.EventNavigatedWithinDocument:
		if ev.FrameID != e.frame {
			return
		}
		e.sameDoc++
		e.url = ev.URL
	case *network.EventResponseReceived:
		if ev.Type != network.ResourceTypeDocument || (e.frame != "" && ev.FrameID != e.frame) {
			return
		}
		e.keep(ev.RequestID, newResponse(ev.Response))
	case *runtime.EventConsoleAPICalled:
		if e.console != nil {
			e.console(consoleMessage(ev))
		}
		return
	case *page.EventJavascriptDialogOpening:
		select {
		case e.dialogs <- ev.Type:
		default:
		}
		return
	default:
		return
	}
	close(e.changed)
	e.changed = make(chan struct{})
}

// keep remembers a document's response, forgetting the oldest beyond
// maxResponses.
func (e *events) keep(id network.RequestID, r *Response) {
	if _, ok := e.responses[id]; !ok {
		e.order = append(e.order, id)
	}
	e.responses[id] = r
	if len(e.order) > maxResponses {
		delete(e.responses, e.order[0])
		e.order = e.order[1:]
	}
}

// wait blocks until cond, called under the lock, holds; it fails when ctx
// ends or the page closes.
func (e *events) wait(ctx context.Context, cond func() bool) error {
	for {
		e.mu.Lock()
		ok, changed := cond(), e.changed
		e.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-e.gone:
			return errPageClosed
		}
	}
}

// changes returns the channel closed at the next change.
func (e *events) changes() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.changed
}

// URL returns the address of the page's main frame, fragment included.
func (p *Page) URL() string {
	e := p.st.events
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.url
}

// OnConsole makes fn receive the page's console messages from now on (nil
// stops). fn runs on the tab's reader goroutine: it must return at once.
func (p *Page) OnConsole(fn func(ConsoleMessage)) {
	e := p.st.events
	e.mu.Lock()
	e.console = fn
	e.mu.Unlock()
}

// consoleMessage turns a console API call into its message.
func consoleMessage(ev *runtime.EventConsoleAPICalled) ConsoleMessage {
	m := ConsoleMessage{Type: string(ev.Type)}
	for i, a := range ev.Args {
		if i > 0 {
			m.Text += " "
		}
		m.Text += remoteText(a)
	}
	return m
}

// dismissDialogs closes every dialog the page opens, so that none blocks
// it, as k6 does: a confirm or a prompt is dismissed (it returns false or
// null), an alert closed and a beforeunload accepted, so that the
// navigation goes on.
func (p *Page) dismissDialogs() {
	e := p.st.events
	for {
		select {
		case t := <-e.dialogs:
			accept := t == page.DialogTypeAlert || t == page.DialogTypeBeforeunload
			_, _ = call(p.tab, p, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		case <-e.gone:
			return
		case <-p.tab.Done():
			return
		}
	}
}
