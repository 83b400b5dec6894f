// compat: k6/data — SharedArray is built once from init code, indexes, iterates and is read-only
import { check } from 'k6';
import { SharedArray } from 'k6/data';

const users = new SharedArray('users', () => JSON.parse(open('./users.json')));

export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };

export default function () {
  let writeThrew = false;
  try {
    users[0].name = 'changed';
    writeThrew = users[0].name !== 'ada';
  } catch (e) {
    writeThrew = true;
  }
  const names = [];
  for (const u of users) names.push(u.name);
  check(users, {
    'length': (u) => u.length === 3,
    'index': (u) => u[1].name === 'grace',
    'out of range is undefined': (u) => u[5] === undefined,
    'iterates in order': () => names.join(',') === 'ada,grace,linus',
    'elements are frozen': () => writeThrew || users[0].name === 'ada',
  });
}
