// The real papaparse and chai bundles, installed from npm by TestNPMPackages
// next to this script, loaded as k6 loads jslib's UMD and CommonJS bundles.
import { check } from 'k6';
import Papa from './node_modules/papaparse/papaparse.min.js';
import chai from './node_modules/chai/chai.js';

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

const csv = Papa.parse('name,age\nada,36\ngrace,45\n', { header: true, skipEmptyLines: true });

export default function () {
  let chaiFailed = '';
  try {
    chai.expect({ a: [1, 2] }).to.deep.equal({ a: [1, 3] });
  } catch (e) {
    chaiFailed = e.message;
  }
  check(null, {
    'papaparse parses CSV with a header': () => csv.data.length === 2 && csv.data[1].name === 'grace' && csv.data[0].age === '36',
    'papaparse unparses': () => Papa.unparse([{ a: 1, b: 'x' }]) === 'a,b\r\n1,x',
    'chai expect passes': () => { chai.expect([1, 2]).to.have.lengthOf(2); chai.assert.equal(1 + 1, 2); return true; },
    'chai expect fails with its message': () => chaiFailed.includes('expected'),
  });
}
