package js

import (
	"github.com/usefullatency/usefullatency/js/modules"
	k6browser "github.com/usefullatency/usefullatency/js/modules/browser"
	k6crypto "github.com/usefullatency/usefullatency/js/modules/crypto"
	k6csv "github.com/usefullatency/usefullatency/js/modules/csv"
	k6data "github.com/usefullatency/usefullatency/js/modules/data"
	k6encoding "github.com/usefullatency/usefullatency/js/modules/encoding"
	k6execution "github.com/usefullatency/usefullatency/js/modules/execution"
	k6fs "github.com/usefullatency/usefullatency/js/modules/fs"
	k6grpc "github.com/usefullatency/usefullatency/js/modules/grpc"
	k6html "github.com/usefullatency/usefullatency/js/modules/html"
	k6http "github.com/usefullatency/usefullatency/js/modules/http"
	"github.com/usefullatency/usefullatency/js/modules/k6"
	k6metrics "github.com/usefullatency/usefullatency/js/modules/metrics"
	k6redis "github.com/usefullatency/usefullatency/js/modules/redis"
	k6secrets "github.com/usefullatency/usefullatency/js/modules/secrets"
	k6streams "github.com/usefullatency/usefullatency/js/modules/streams"
	k6timers "github.com/usefullatency/usefullatency/js/modules/timers"
	"github.com/usefullatency/usefullatency/js/modules/webcrypto"
	k6websockets "github.com/usefullatency/usefullatency/js/modules/websockets"
	k6ws "github.com/usefullatency/usefullatency/js/modules/ws"
)

// builtin are the k6 modules every script can import. Extensions
// (k6/x/…) are not listed here: they register themselves from an init
// function, as the repository root does for k6/x/usefulsse and k6/x/sse.
var builtin = []struct {
	name string
	new  func() modules.Module
}{
	{k6.Name, k6.New},
	{k6metrics.Name, k6metrics.New},
	{k6execution.Name, k6execution.New},
	{k6data.Name, k6data.New},
	{k6encoding.Name, k6encoding.New},
	{k6crypto.Name, k6crypto.New},
	{k6timers.Name, k6timers.New},
	{k6secrets.Name, k6secrets.New},
	{k6html.Name, k6html.New},
	{k6http.Name, k6http.New},
	{webcrypto.Name, webcrypto.New},
	{k6websockets.Name, k6websockets.New},
	{k6websockets.ExperimentalName, k6websockets.New},
	{k6ws.Name, k6ws.New},
	{k6fs.Name, k6fs.New},
	{k6csv.Name, k6csv.New},
	{k6grpc.Name, k6grpc.New},
	{k6streams.Name, k6streams.New},
	{k6redis.Name, k6redis.New},
	{k6browser.Name, k6browser.New},
}

func init() {
	for _, m := range builtin {
		modules.Register(m.name, m.new())
	}
}
