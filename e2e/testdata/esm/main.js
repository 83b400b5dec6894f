// A relative import from a subdirectory, open() relative to this file, a
// SharedArray from JSON and an async default function. Every check must
// pass for the thresholds to hold.
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import label, { double } from './lib/helper.js';

const items = new SharedArray('items', () => JSON.parse(open('./data/items.json')));
const message = open('./data/message.txt');

export const options = {
  iterations: 3,
  thresholds: { checks: ['rate==1'], 'checks{check:awaited}': ['rate==1'] },
};

export default async function () {
  const doubled = await new Promise((resolve) => resolve(double(21)));
  const q = await Promise.resolve(items[__ITER].q);
  check(null, {
    'named import': () => doubled === 42,
    'default import': () => label === 'default export',
    'open relative to the script': () => message === 'hello file',
    'shared array': () => items.length === 3,
    awaited: () => q === ['a', 'b', 'c'][__ITER],
  });
}
