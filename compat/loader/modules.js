// compat: modules — ES modules import CommonJS files (default import = module.exports), require() reaches k6 modules, default exports of every form
import { check } from 'k6';
import cjs from './lib/cjs.js';
import runDefault, { alias } from './lib/esm.js';

const k6 = require('k6');

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

function main() {
  check(null, {
    'CommonJS default import is module.exports': () => cjs.greet('ada') === 'hello, ada',
    'module.exports replaced exports': () => cjs.ignored === undefined,
    'named default function': () => runDefault() === 'default-run' && alias() === 'default-run',
    'require of a k6 module': () => typeof k6.check === 'function',
  });
}
export { main as default };
