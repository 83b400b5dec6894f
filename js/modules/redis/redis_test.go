package k6redis_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/internal/redistest"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// helpers are prepended to every script: eq throws when a value (compared
// as JSON) is not the expected one; rejection resolves with the message a
// promise was rejected with, or throws when it was fulfilled.
const helpers = `
import redis from 'k6/experimental/redis';
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }
}
async function rejection(p) {
  try { const v = await p; } catch (e) { return String(e && e.message || e); }
  throw new Error('the promise was fulfilled');
}
`

// call runs the script's async default function in a new VU and returns
// its error.
func call(t *testing.T, src string) error {
	t.Helper()
	vu := jstest.NewVU(t, helpers+src)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := vu.Call(ctx, "default")
	return err
}

// TestCommands sends the documented commands to a real server and checks
// what each promise resolves with.
func TestCommands(t *testing.T) {
	addr := redistest.Start(t)
	err := call(t, `
const c = new redis.Client('redis://`+addr+`/2');
export default async function () {
  eq(await c.set('s', 'v', 0), 'OK', 'set');
  eq(await c.get('s'), 'v', 'get');
  eq(await c.getSet('s', 'w'), 'v', 'getSet');
  eq(await c.getDel('s'), 'w', 'getDel');
  eq(await c.exists('s'), 0, 'exists after getDel');
  eq(await c.set('n', 10), 'OK', 'set without expiration');
  eq(await c.incr('n'), 11, 'incr');
  eq(await c.incrBy('n', 5), 16, 'incrBy');
  eq(await c.decr('n'), 15, 'decr');
  eq(await c.decrBy('n', 20), -5, 'decrBy');
  eq(await c.set('t', true, 100), 'OK', 'set with expiration');
  eq(await c.get('t'), '1', 'a boolean is sent as 1');
  const ttl = await c.ttl('t');
  if (ttl <= 0 || ttl > 100) throw new Error('ttl ' + ttl);
  eq(await c.persist('t'), true, 'persist');
  eq(await c.ttl('t'), -1, 'ttl after persist');
  eq(await c.expire('t', 50), true, 'expire');
  eq(await c.expire('missing', 50), false, 'expire of a missing key');
  eq(await c.mget('n', 'missing', 't'), ['-5', null, '1'], 'mget');
  eq(await c.mget(['n', 't']), ['-5', '1'], 'mget of an array');
  eq(await c.exists(['n', 't', 'missing']), 2, 'exists');
  eq(await c.del(['n', 't']), 2, 'del of an array');
  eq(await c.del('missing'), 0, 'del of a missing key');

  eq(await c.rpush('l', 'a', 'b'), 2, 'rpush');
  eq(await c.lpush('l', 'z', 1.5), 4, 'lpush');
  eq(await c.lrange('l', 0, -1), ['1.5', 'z', 'a', 'b'], 'lrange');
  eq(await c.lindex('l', -1), 'b', 'lindex');
  eq(await c.lset('l', 0, 'x'), 'OK', 'lset');
  eq(await c.lrem('l', 0, 'z'), 1, 'lrem');
  eq(await c.llen('l'), 3, 'llen');
  eq(await c.lpop('l'), 'x', 'lpop');
  eq(await c.rpop('l'), 'b', 'rpop');
  eq(await c.lrange('missing', 0, -1), [], 'lrange of a missing key');

  eq(await c.hset('h', 'f', 'v'), 1, 'hset');
  eq(await c.hsetnx('h', 'f', 'w'), false, 'hsetnx of a set field');
  eq(await c.hsetnx('h', 'g', 2), true, 'hsetnx');
  eq(await c.hget('h', 'f'), 'v', 'hget');
  eq(await c.hincrby('h', 'g', 3), 5, 'hincrby');
  eq(await c.hgetall('h'), {f: 'v', g: '5'}, 'hgetall');
  eq((await c.hkeys('h')).sort(), ['f', 'g'], 'hkeys');
  eq((await c.hvals('h')).sort(), ['5', 'v'], 'hvals');
  eq(await c.hlen('h'), 2, 'hlen');
  eq(await c.hdel('h', ['f', 'missing']), 1, 'hdel');
  eq(await c.hgetall('missing'), {}, 'hgetall of a missing key');

  eq(await c.sadd('set', 'a', 'b', 'a'), 2, 'sadd');
  eq(await c.sismember('set', 'a'), true, 'sismember');
  eq(await c.sismember('set', 'c'), false, 'sismember of a non-member');
  eq((await c.smembers('set')).sort(), ['a', 'b'], 'smembers');
  const r = await c.srandmember('set');
  if (r !== 'a' && r !== 'b') throw new Error('srandmember ' + r);
  eq(await c.srem('set', 'a', 'c'), 1, 'srem');
  eq(await c.spop('set'), 'b', 'spop');

  const k = await c.randomKey();
  if (k !== 'h' && k !== 'l') throw new Error('randomKey ' + k);
  eq(await c.sendCommand('ECHO', 'Hello world'), 'Hello world', 'sendCommand ECHO');
  eq(await c.sendCommand('RPUSH', 'raw', 1, 2), 2, 'sendCommand RPUSH');
  eq(await c.sendCommand('LRANGE', 'raw', 0, -1), ['1', '2'], 'sendCommand LRANGE');
  eq(await c.sendCommand('GET', 'missing'), null, 'sendCommand GET of a missing key');
  eq(await c.sendCommand('CLIENT', 'INFO').then(s => / db=2 /.test(s)), true, 'the URL selects db 2');
}`)
	if err != nil {
		t.Fatal(err)
	}
}

// TestOptionsObject connects with an options object and sees that two
// clients share the server's data and that database selects a database.
func TestOptionsObject(t *testing.T) {
	addr := redistest.Start(t)
	host, port, _ := strings.Cut(addr, ":")
	err := call(t, `
const a = new redis.Client({socket: {host: '`+host+`', port: `+port+`, dialTimeout: 2000}, database: 3, clientName: 'k6'});
const b = new redis.Client('redis://`+addr+`/3');
const other = new redis.Client('redis://`+addr+`/0');
export default async function () {
  await a.set('k', 'v', 0);
  eq(await b.get('k'), 'v', 'the same database through a URL');
  eq(await other.exists('k'), 0, 'another database');
  eq(await a.sendCommand('CLIENT', 'GETNAME'), 'k6', 'clientName');
}`)
	if err != nil {
		t.Fatal(err)
	}
}

// TestRejections checks the promises that reject and their messages.
func TestRejections(t *testing.T) {
	addr := redistest.Start(t)
	dead := deadAddr(t)
	for _, tc := range []struct{ name, expr, want string }{
		{"get of a missing key", `c.get('missing')`, "redis: nil"},
		{"lpop of a missing list", `c.lpop('missing')`, "redis: nil"},
		{"randomKey of an empty database", `c.randomKey()`, "redis: nil"},
		{"wrong type", `c.set('str', 'v', 0).then(() => c.lpush('str', 'x'))`, "WRONGTYPE Operation against a key holding the wrong kind of value"},
		{"incr of a string", `c.set('str', 'v', 0).then(() => c.incr('str'))`, "ERR value is not an integer or out of range"},
		{"unknown command", `c.sendCommand('NOPE')`, "ERR unknown command"},
		{"missing argument", `c.get()`, "redis get: takes at least 1 argument(s), got 0"},
		{"object argument", `c.set('k', {a: 1})`, "arguments must be strings, numbers or booleans"},
		{"unreachable server", `new redis.Client('redis://` + dead + `').get('k')`, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := call(t, `
const c = new redis.Client('redis://`+addr+`/1');
export default async function () {
  await c.sendCommand('FLUSHDB');
  const msg = await rejection(`+tc.expr+`);
  if (!msg.includes(`+"`"+tc.want+"`"+`)) throw new Error('rejected with ' + msg);
}`)
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestInitContext checks that the constructor throws on bad options and
// that a command from the init context is rejected.
func TestInitContext(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"cluster", `new redis.Client({cluster: {nodes: ['redis://a:1']}})`, "only single-node servers are supported"},
		{"sentinel", `new redis.Client({socket: {host: 'a'}, masterName: 'm'})`, "only single-node servers are supported"},
		{"no host", `new redis.Client({socket: {port: 1}})`, "options.socket.host is required"},
		{"bad URL", `new redis.Client('http://localhost')`, "invalid URL scheme"},
		{"no argument", `new redis.Client()`, "URL string or an options object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := call(t, `
export default function () {
  let msg = '';
  try { `+tc.src+` } catch (e) { msg = String(e.message); }
  if (!msg.includes('`+tc.want+`')) throw new Error('threw ' + msg);
}`)
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("command in init", func(t *testing.T) {
		err := call(t, `
const c = new redis.Client('redis://127.0.0.1:1');
let msg = '';
c.get('k').catch(e => { msg = e.message; });
export default async function () {
  if (!msg.includes('init context')) throw new Error('rejected with ' + msg);
}`)
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestInterrupted checks that an interrupted iteration stops waiting for a
// reply: BLPOP would block for a minute.
func TestInterrupted(t *testing.T) {
	addr := redistest.Start(t)
	vu := jstest.NewVU(t, helpers+`
const c = new redis.Client('redis://`+addr+`');
export default async function () { await c.sendCommand('BLPOP', 'never', 60); }`)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := vu.Call(ctx, "default"); err == nil {
		t.Fatal("the call succeeded, want an interruption")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the interrupted call returned after %v", d)
	}
}
