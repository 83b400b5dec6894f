// compat: k6/experimental/csv — csv.parse(file, options) resolves to a read-only SharedArray of rows (arrays, or objects keyed by the header with asObjects), with skipFirstLine, fromLine, toLine and delimiter; csv.Parser streams rows as {done, value}
import { check } from 'k6';
import { open } from 'k6/experimental/fs';
import csv from 'k6/experimental/csv';
import exec from 'k6/execution';

const file = await open('prompts.csv');
const rows = await csv.parse(file, { skipFirstLine: true });
const objects = await csv.parse(file, { asObjects: true });
const middle = await csv.parse(file, { fromLine: 2, toLine: 2 });
const parser = new csv.Parser(file, { skipFirstLine: true });

export const options = { vus: 1, iterations: 4, thresholds: { checks: ['rate==1'] } };

export default async function () {
  const i = exec.scenario.iterationInTest;
  const { done, value } = await parser.next();
  let written = true;
  try {
    rows[0] = ['x'];
  } catch (e) {
    written = false;
  }
  check(rows, {
    'parse gives arrays of strings': (r) => r.length === 3 && r[0][0] === 'How do I return an order?' && r[0][1] === 'returns',
    'quoted fields keep their delimiter': (r) => r[2][0] === 'Can I pay later, in three parts?',
    'asObjects keys rows by the header': () => objects.length === 3 && objects[1].question === 'Where is my parcel?' && objects[1].intent === 'tracking',
    'fromLine and toLine select lines': () => middle.length === 1 && middle[0][1] === 'tracking',
    'rows are read-only': () => !written && rows[0][0] === 'How do I return an order?',
    'Parser.next streams rows then done': () => (i < 3 ? !done && value[0] === rows[i][0] : done && value === undefined),
  });
}
