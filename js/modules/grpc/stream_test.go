package k6grpc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/internal/grpcdesc/grpctest"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

func TestServerStreamDeliversTokensThenEndAndTheIterationWaits(t *testing.T) {
	r := mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const got = [];
  let last = 0;
  const s = new grpc.Stream(client, 'chat.v1.Chat/Generate', { tags: { k6test: 'stream' } });
  s.on('data', (tok, meta) => {
    if (!(meta.ts >= last)) throw new Error('ts not increasing: ' + meta.ts);
    last = meta.ts;
    got.push(tok.index + ':' + tok.text);
  });
  s.on('error', (e) => got.push('error:' + e.code));
  s.on('end', () => {
    eq(got, ['0:tok0', '1:tok1', '2:tok2', '3:tok3', '4:tok4'], 'tokens');
    console.log('stream ended after ' + got.length + ' tokens');
  });
  s.write({ text: 'count', tokens: 5 });
  s.end();
}`)
	if !strings.Contains(r.log, "stream ended after 5 tokens") {
		t.Fatalf("the iteration ended before the end event: %q", r.log)
	}
	want := map[string]int{"grpc_streams": 1, "grpc_streams_msgs_sent": 1, "grpc_streams_msgs_received": 5, "grpc_req_duration": 1}
	for name, n := range want {
		s := r.of(name)
		if len(s) != n {
			t.Errorf("%s: %d samples, want %d", name, len(s), n)
			continue
		}
		tags := s[0].Tags
		if tags["method"] != "/chat.v1.Chat/Generate" || tags["rpc_type"] != "stream" || tags["k6test"] != "stream" || tags["scenario"] != "default" {
			t.Errorf("%s tags: %v", name, tags)
		}
	}
	if d := r.of("grpc_req_duration"); len(d) == 1 && d[0].Tags["status"] != "0" {
		t.Errorf("grpc_req_duration status tag %q, want 0", d[0].Tags["status"])
	}
}

func TestStreamErrorStatusIsAnErrorEventThenEnd(t *testing.T) {
	r := mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const got = [];
  const s = new grpc.Stream(client, 'chat.v1.Chat/Generate');
  s.on('data', (tok) => got.push(tok.text));
  s.on('error', (e) => got.push('error:' + e.code + ':' + e.message));
  s.on('end', () => { eq(got, ['tok0', 'tok1', 'error:14:failed as asked after 2 tokens'], 'events'); console.log('ended'); });
  s.write({ tokens: 2, failCode: 14 });
  s.end();
}`)
	if !strings.Contains(r.log, "ended") {
		t.Fatalf("no end event: %q", r.log)
	}
	if d := r.of("grpc_req_duration"); len(d) != 1 || d[0].Tags["status"] != "14" {
		t.Errorf("grpc_req_duration: %+v, want one with status 14", d)
	}
}

func TestClientAndBidiStreaming(t *testing.T) {
	r := mustRun(t, `
import { Stream } from 'k6/net/grpc';
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const collect = new Stream(client, 'chat.v1.Chat/Collect');
  collect.on('data', (reply) => eq(reply.text, 'a b c', 'collected'));
  collect.on('end', () => console.log('collect ended'));
  for (const text of ['a', 'b', 'c']) collect.write({ text });
  collect.end();

  const chat = new Stream(client, 'chat.v1.Chat/Converse');
  const said = ['hi', 'how are you', 'bye'];
  const heard = [];
  chat.on('data', (tok) => {
    heard.push(tok.text);
    if (heard.length < said.length) chat.write({ text: said[heard.length] });
    else chat.end();
  });
  chat.on('end', () => { eq(heard, ['echo:hi', 'echo:how are you', 'echo:bye'], 'conversation'); console.log('converse ended'); });
  chat.write({ text: said[0] });
}`)
	for _, want := range []string{"collect ended", "converse ended"} {
		if !strings.Contains(r.log, want) {
			t.Errorf("log lacks %q: %s", want, r.log)
		}
	}
	if s := r.of("grpc_streams_msgs_sent"); len(s) != 6 {
		t.Errorf("grpc_streams_msgs_sent: %d samples, want 6", len(s))
	}
	if s := r.of("grpc_streams"); len(s) != 2 {
		t.Errorf("grpc_streams: %d samples, want 2", len(s))
	}
}

func TestStreamHandlerExceptionFailsTheIterationAndEndsTheStream(t *testing.T) {
	r := run(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const s = new grpc.Stream(client, 'chat.v1.Chat/Generate');
  s.on('data', () => { throw new Error('handler boom'); });
  s.write({ tokens: 3 });
  s.end();
}`)
	if r.err == nil || !strings.Contains(r.err.Error(), "handler boom") {
		t.Fatalf("error %v, want the handler's", r.err)
	}
}

func TestStreamTimeoutEndsAHangingStream(t *testing.T) {
	r := mustRun(t, `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const s = new grpc.Stream(client, 'chat.v1.Chat/Generate', { timeout: '100ms' });
  const got = [];
  s.on('error', (e) => got.push(e.code));
  s.on('end', () => { eq(got, [grpc.StatusDeadlineExceeded], 'error codes'); console.log('timed out'); });
  s.write({ hang: true });
  s.end();
}`)
	if !strings.Contains(r.log, "timed out") {
		t.Fatalf("no end event: %q", r.log)
	}
}

func TestAStoppedIterationCutsItsStreams(t *testing.T) {
	srv := grpctest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-srv.Hanging
		cancel()
	}()
	src := prelude + `
export default function () {
  client.connect(__ENV.GRPC, { plaintext: true });
  const s = new grpc.Stream(client, 'chat.v1.Chat/Generate');
  s.on('end', () => console.log('end dispatched'));
  s.write({ hang: true });
  s.end();
}`
	r := jstest.Run(ctx, t, src, 1, func(r *modules.Run) {
		r.Env = map[string]string{"GRPC": srv.Addr, "PROTO_DIR": srv.ProtoDir}
	})
	if strings.Contains(r.Log, "end dispatched") {
		t.Errorf("an event was dispatched after the iteration stopped: %s", r.Log)
	}
	if d := jstest.Of(r.Samples, "grpc_req_duration"); len(d) != 1 || d[0].Tags["status"] != "1" {
		t.Errorf("grpc_req_duration: %+v, want one with status 1 (CANCELED)", d)
	}
}
