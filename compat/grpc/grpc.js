// compat: k6/net/grpc — client.load parses a .proto file at run time; connect, then invoke sends metadata and returns k6's Response (status, message by proto3's JSON mapping, headers, trailers, error); a status other than OK is a response, not an exception; asyncInvoke returns a promise; a Stream delivers a server's token stream as data events, then end, and the iteration waits for it; connect with reflect finds the methods without a .proto; grpc_* metrics with the params' tags in a GRPC block
// expect: GRPC
import grpc from 'k6/net/grpc';
import { check } from 'k6';

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==1'],
    'grpc_req_duration{k6test:yes}': ['max>0'],
    'grpc_req_duration{status:5}': ['max>0'],
    grpc_streams: ['count==1'],
    grpc_streams_msgs_sent: ['count==1'],
    grpc_streams_msgs_received: ['count==4'],
  },
};

const client = new grpc.Client();
client.load([], __ENV.GRPC_PROTO);
const reflecting = new grpc.Client();

export default async function () {
  check(client.connect(__ENV.GRPC, { plaintext: true }), { 'connect returns true': (ok) => ok === true });
  const params = { metadata: { 'x-user': 'ada' }, tags: { k6test: 'yes' } };
  const res = client.invoke('chat.v1.Chat/Complete', { text: 'refund please', big: 7 }, params);
  check(res, {
    'status is StatusOK': (r) => r.status === grpc.StatusOK && r.error === null,
    'message by the JSON mapping': (r) => r.message.text === 'refund please' && r.message.big === '7',
    'metadata sent': (r) => r.message.metadata['x-user'] === 'ada',
    'headers and trailers are arrays': (r) => r.headers['x-served-by'][0] === 'grpctest' && r.trailers['x-tokens'][0] === '2',
  });

  const failed = client.invoke('chat.v1.Chat/Complete', { text: 'missing', failCode: 5 }, params);
  check(failed, {
    'an error status is a response': (r) => r.status === grpc.StatusNotFound && r.message === null,
    'its error object': (r) => r.error.code === 5 && r.error.message === 'failed as asked: missing',
  });

  const later = await client.asyncInvoke('chat.v1.Chat/Complete', { text: 'async' }, params);
  check(later, { 'asyncInvoke resolves with the response': (r) => r.status === grpc.StatusOK && r.message.text === 'async' });

  const tokens = [];
  const stream = new grpc.Stream(client, 'chat.v1.Chat/Generate');
  stream.on('data', (tok, meta) => tokens.push(tok.text + (meta.ts > 0 ? '' : '?')));
  stream.on('error', (e) => tokens.push('error ' + e.code));
  stream.on('end', () => {
    check(tokens, { 'tokens in order, then end': (t) => t.join(' ') === 'tok0 tok1 tok2 tok3' });
    client.close();
  });
  stream.write({ text: 'stream it', tokens: 4 });
  stream.end();

  reflecting.connect(__ENV.GRPC, { plaintext: true, reflect: true });
  const viaReflection = reflecting.invoke('/chat.v1.Chat/Complete', { text: 'reflected' });
  check(viaReflection, { 'reflection finds the method': (r) => r.message.text === 'reflected' });
  reflecting.close();
}
