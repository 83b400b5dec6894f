// compat: k6/encoding — b64encode/b64decode in std, rawstd, url and rawurl; decode to an ArrayBuffer or a string ("s")
import { check } from 'k6';
import encoding from 'k6/encoding';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

export default function () {
  const bytes = new Uint8Array([0xfb, 0xff, 0xfe]).buffer;
  check(encoding, {
    'std': (e) => e.b64encode('hello?') === 'aGVsbG8/',
    'std pads': (e) => e.b64encode('hi') === 'aGk=',
    'rawstd does not pad': (e) => e.b64encode('hi', 'rawstd') === 'aGk',
    'url alphabet': (e) => e.b64encode(bytes, 'url') === '-__-',
    'rawurl': (e) => e.b64encode('hi', 'rawurl') === 'aGk',
    'decode to a string': (e) => e.b64decode('aGVsbG8/', 'std', 's') === 'hello?',
    'decode to an ArrayBuffer': (e) => {
      const b = e.b64decode('-__-', 'url');
      return b instanceof ArrayBuffer && new Uint8Array(b)[1] === 0xff;
    },
  });
}
