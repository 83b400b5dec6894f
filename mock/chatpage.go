package mock

import (
	_ "embed"
	"net/http"
)

// RenderDelayHeader is the response header of a stream under the
// render_delay fault: the milliseconds the chat page holds each update of
// the screen back (Config.RenderDelayMS).
const RenderDelayHeader = "X-Usefullatency-Render-Delay"

// chatPageHTML is the chat page: self-contained HTML and JavaScript, no
// external resource.
//
//go:embed chatpage.html
var chatPageHTML []byte

// chatPage answers GET /chat with the chat page, a browser front end of
// POST /chat for the UI probe: its query's bucket, tenant, faults
// (comma-separated) and mock_seed become the control fields of every
// question it posts; each answer streams into a new .answer bubble, with
// its business state in a script[type="application/json"] island and
// data-done set at the end.
func (s *Server) chatPage(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(chatPageHTML)
}
