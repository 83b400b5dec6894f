// Package usefullatency is the xk6-shaped top of the repository: importing
// it registers the k6/x/usefulsse JavaScript module (and k6/x/sse, the
// xk6-sse compatible API) into the runner, the way an xk6 extension
// registers into k6. The modules themselves live in js/modules/usefulsse and
// js/modules/sse; the stream logic in sse/.
package usefullatency

import (
	"github.com/usefullatency/usefullatency/js/modules"
	xk6sse "github.com/usefullatency/usefullatency/js/modules/sse"
	"github.com/usefullatency/usefullatency/js/modules/usefulsse"
)

func init() {
	modules.Register(usefulsse.Name, usefulsse.New())
	modules.Register(xk6sse.Name, xk6sse.New())
}
