import exec from 'k6/execution';

export function setup() {
  exec.test.abort('no data');
}
export default function () {}
