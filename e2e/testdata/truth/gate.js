// bench/truth.js with gates: every moment of the probe within a few
// milliseconds of the server's own send time while 6 VUs spin JavaScript.
// Before the JavaScript turns and the packet capture these were 100–200 ms.
import { options as bench } from '../../../bench/truth.js';

export { stream, spin } from '../../../bench/truth.js';

const gate = ['p(95)<10', 'max<50'];
export const options = Object.assign({}, bench, {
  thresholds: { err_headers: gate, err_first_text: gate, err_useful: gate, err_event: gate },
});
