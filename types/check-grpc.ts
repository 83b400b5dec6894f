// Compiles the gRPC declarations against typical uses.
import grpc, { Client, Stream, Response, StatusOK } from 'k6/net/grpc';

const client = new grpc.Client();
client.load(['protos'], 'chat.proto');
const other: Client = new Client();
other.loadProtoset('chat.protoset');

export default async function (): Promise<void> {
  client.connect('127.0.0.1:9000', { plaintext: true, timeout: '5s', maxReceiveSize: 1 << 20 });
  other.connect('assistant.example:443', { reflect: true, tls: { cacerts: ['-----BEGIN CERTIFICATE-----'] } });
  const res: Response = client.invoke('chat.v1.Chat/Complete', { text: 'hi' }, { metadata: { 'x-user': 'a' }, tags: { k6test: 'yes' } });
  const ok: boolean = res.status === StatusOK && res.error === null && res.headers['x-served-by'][0] === 'grpctest';
  const later = await client.asyncInvoke('chat.v1.Chat/Complete', null, { timeout: 1000, discardResponseMessage: true });
  const tokens: string[] = [];
  const s = new Stream(client, 'chat.v1.Chat/Generate');
  s.on('data', (tok, meta) => tokens.push(`${tok.text}@${meta.ts.toFixed(0)}`));
  s.on('error', (e) => tokens.push(`${e.code}:${e.message}`));
  s.on('end', () => client.close());
  s.write({ text: 'count', tokens: 5 });
  s.end();
  if (!ok || later.status !== grpc.StatusDeadlineExceeded) tokens.push('!');
}
