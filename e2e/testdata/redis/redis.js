// A k6-docs-shaped script for k6/experimental/redis: REDIS_URL names the
// server. Each iteration works on keys of its own VU and iteration.
import { check } from 'k6';
import exec from 'k6/execution';
import redis from 'k6/experimental/redis';

export const options = {
  vus: 2,
  iterations: 4,
  thresholds: { checks: ['rate==1'] },
};

const client = new redis.Client(__ENV.REDIS_URL);

export default async function () {
  const id = `${exec.vu.idInTest}-${exec.vu.iterationInScenario}`;

  await client.set(`greeting:${id}`, 'hello', 10);
  const greeting = await client.get(`greeting:${id}`);
  const visits = await client.incr(`visits:${id}`);

  await client.rpush(`queue:${id}`, 'a', 'b', 'c');
  const head = await client.lpop(`queue:${id}`);
  const queue = await client.lrange(`queue:${id}`, 0, -1);

  await client.hset(`user:${id}`, 'name', 'ada');
  await client.hincrby(`user:${id}`, 'logins', 2);
  const user = await client.hgetall(`user:${id}`);

  const deleted = await client.del([`greeting:${id}`, `visits:${id}`, `queue:${id}`, `user:${id}`]);

  check(null, {
    'get returns what set stored': () => greeting === 'hello',
    'incr counts from 0': () => visits === 1,
    'lpop pops the head': () => head === 'a',
    'lrange lists the rest': () => JSON.stringify(queue) === '["b","c"]',
    'hgetall returns the hash': () => user.name === 'ada' && user.logins === '2',
    'del removes every key': () => deleted === 4,
  });
}
