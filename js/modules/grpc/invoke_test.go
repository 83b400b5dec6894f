package k6grpc_test

import (
	"strings"
	"testing"
)

func TestInvokeUnaryWithMetadataBothWays(t *testing.T) {
	r := mustRun(t, `
export default function () {
  eq(client.connect(__ENV.GRPC, { plaintext: true }), true, 'connect');
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'hello there', big: '9007199254740993', blob: 'AQID' },
    { metadata: { 'x-user': 'ada', 'X-Trace': ['a', 'b'] }, tags: { k6test: 'yes' } });
  eq(res.status, grpc.StatusOK, 'status');
  eq(res.error, null, 'error');
  eq(res.message.text, 'hello there', 'text');
  eq(res.message.big, '9007199254740993', 'int64 as a string');
  eq(res.message.blob, 'AQID', 'bytes as base64');
  eq(res.message.metadata, { 'x-trace': 'a,b', 'x-user': 'ada' }, 'metadata the server got');
  eq(typeof res.message.at, 'string', 'Timestamp as RFC 3339');
  eq(res.headers['x-served-by'], ['grpctest'], 'header');
  eq(res.trailers['x-tokens'], ['2'], 'trailer');
  const empty = client.invoke('/chat.v1.Chat/Complete', {});
  eq([empty.message.text, empty.message.big, empty.message.metadata], ['', '0', {}], 'defaults are emitted');
  const discarded = client.invoke('chat.v1.Chat/Complete', { text: 'x' }, { discardResponseMessage: true });
  eq([discarded.status, discarded.message], [0, null], 'discardResponseMessage');
  client.close();
}`)
	d := r.of("grpc_req_duration")
	if len(d) != 3 {
		t.Fatalf("grpc_req_duration: %d samples, want 3", len(d))
	}
	tags := d[0].Tags
	url := tags["url"]
	if !strings.HasSuffix(url, "/chat.v1.Chat/Complete") || tags["name"] != url || tags["method"] != "/chat.v1.Chat/Complete" ||
		tags["status"] != "0" || tags["rpc_type"] != "unary" || tags["k6test"] != "yes" || tags["scenario"] != "default" {
		t.Errorf("grpc_req_duration tags: %v", tags)
	}
	if d[0].Value <= 0 {
		t.Errorf("grpc_req_duration %v, want > 0", d[0].Value)
	}
	for _, name := range []string{"data_sent", "data_received"} {
		s := r.of(name)
		if len(s) != 3 || s[0].Value <= 0 {
			t.Errorf("%s: %+v, want 3 positive samples", name, s)
		}
	}
}

func TestInvokeErrorStatusIsAResponse(t *testing.T) {
	r := mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'nope', failCode: 7 });
  eq(res.status, grpc.StatusPermissionDenied, 'status');
  eq(res.message, null, 'message');
  eq(res.error, { code: 7, message: 'failed as asked: nope', details: [] }, 'error');
  eq(res.trailers['x-tokens'], ['1'], 'trailers of a failed call');
}`)
	if d := r.of("grpc_req_duration"); len(d) != 1 || d[0].Tags["status"] != "7" {
		t.Errorf("grpc_req_duration: %+v, want one sample with status 7", d)
	}
}

func TestInvokeTimeoutIsDeadlineExceeded(t *testing.T) {
	mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const start = Date.now();
  const res = client.invoke('chat.v1.Chat/Complete', { hang: true }, { timeout: '100ms' });
  eq(res.status, grpc.StatusDeadlineExceeded, 'status');
  eq(res.error.code, 4, 'error code');
  if (Date.now() - start > 20000) throw new Error('the timeout did not end the call');
  const n = client.invoke('chat.v1.Chat/Complete', { hang: true }, { timeout: 50 });
  eq(n.status, grpc.StatusDeadlineExceeded, 'a timeout in milliseconds');
}`)
}

func TestAsyncInvokeResolvesOnTheEventLoop(t *testing.T) {
	r := mustRun(t, `
export default async function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const order = [];
  const p = client.asyncInvoke('chat.v1.Chat/Complete', { text: 'one' }).then((res) => { order.push('resolved:' + res.message.text); return res; });
  order.push('sync');
  const all = await Promise.all([p, client.asyncInvoke('chat.v1.Chat/Complete', { text: 'two', failCode: 5 })]);
  eq(order, ['sync', 'resolved:one'], 'order');
  eq(all[1].status, grpc.StatusNotFound, 'second status');
  let threw = '';
  await client.asyncInvoke('chat.v1.Chat/Nope', {}).catch((e) => { threw = String(e); });
  if (!threw.includes('/chat.v1.Chat/Nope')) throw new Error('unknown method: ' + threw);
  console.log('async done');
}`)
	if !strings.Contains(r.log, "async done") {
		t.Fatalf("the iteration ended early: %s", r.log)
	}
	if d := r.of("grpc_req_duration"); len(d) != 2 {
		t.Errorf("grpc_req_duration: %d samples, want 2", len(d))
	}
}

func TestMisuseThrowsClearErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"invoke before connect", `client.invoke('chat.v1.Chat/Complete', {})`, "call client.connect(address) first"},
		{"unknown method", `client.connect(__ENV.GRPC, { plaintext: true }); client.invoke('chat.v1.Chat/Nope', {})`, `"/chat.v1.Chat/Nope" not found`},
		{"unknown field", `client.connect(__ENV.GRPC, { plaintext: true }); client.invoke('chat.v1.Chat/Complete', { txt: 'x' })`, `not a chat.v1.Prompt message`},
		{"unknown param", `client.connect(__ENV.GRPC, { plaintext: true }); client.invoke('chat.v1.Chat/Complete', {}, { timout: 1 })`, "params.timout: unknown param"},
		{"unknown connect param", `client.connect(__ENV.GRPC, { plaintxt: true })`, "params.plaintxt: unknown param"},
		{"load outside init", `client.load([], 'chat.proto')`, "init context"},
		{"refused connection", `client.connect('127.0.0.1:1', { plaintext: true, timeout: '5s' })`, "connection refused"},
		{"stream of a non-client", `client.connect(__ENV.GRPC, { plaintext: true }); new grpc.Stream({}, 'chat.v1.Chat/Generate')`, "client must be a grpc.Client"},
		{"unknown stream event", `client.connect(__ENV.GRPC, { plaintext: true }); new grpc.Stream(client, 'chat.v1.Chat/Generate').on('status', () => {})`, `unknown event "status"`},
		{"bad address", `client.connect('no-port', { plaintext: true })`, "want host:port"},
		{"blocked host", `client.connect('blocked.test:443', { timeout: '5s' })`, "hostname is blocked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runWith(t, prelude+"export default function () { "+c.body+"; }", map[string]any{"blockHostnames": []any{"*.test"}})
			if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", r.err, c.want)
			}
		})
	}
}

func TestMaxReceiveSizeLimitsAResponse(t *testing.T) {
	mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true, maxReceiveSize: 64 });
  const big = client.invoke('chat.v1.Chat/Complete', { text: 'x'.repeat(200) });
  eq(big.status, grpc.StatusResourceExhausted, 'a response over maxReceiveSize');
  eq(big.message, null, 'its message');
  const small = client.invoke('chat.v1.Chat/Complete', { text: 'ok' });
  eq(small.status, grpc.StatusOK, 'a response under it');
}`)
}

func TestBlacklistedIPIsRefused(t *testing.T) {
	r := runWith(t, prelude+`export default function () { client.connect(__ENV.GRPC, { plaintext: true, timeout: '5s' }); }`,
		map[string]any{"blacklistIPs": []any{"127.0.0.0/8"}})
	if r.err == nil || !strings.Contains(r.err.Error(), "ip is blacklisted") {
		t.Fatalf("error %v, want the blacklist's", r.err)
	}
}

func TestCallsInAGroupAndNamedByTagsCarryThem(t *testing.T) {
	r := mustRun(t, `
import { group } from 'k6';
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  group('ask', () => client.invoke('chat.v1.Chat/Complete', { text: 'in a group' }, { tags: { name: 'complete' } }));
}`)
	d := r.of("grpc_req_duration")
	if len(d) != 1 || d[0].Tags["group"] != "::ask" || d[0].Tags["name"] != "complete" || !strings.HasSuffix(d[0].Tags["url"], "/chat.v1.Chat/Complete") {
		t.Fatalf("grpc_req_duration: %+v, want one in ::ask named complete", d)
	}
}

func TestBinaryMetadataIsSentAsBytes(t *testing.T) {
	mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'b' }, { metadata: { 'x-raw-bin': new Uint8Array([104, 105]), 'x-buf-bin': new Uint8Array([111, 107]).buffer } });
  eq([res.message.metadata['x-raw-bin'], res.message.metadata['x-buf-bin']], ['hi', 'ok'], 'binary metadata the server decoded');
}`)
}
