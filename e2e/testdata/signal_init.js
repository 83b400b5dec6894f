// Loops forever in the stage named by __ENV.STAGE, after logging a line
// that tells the test to send its signal: 'load' (the first evaluation of
// the script, VU 0), 'vus' (the init code of the test's VUs) or 'setup'.
const stage = __ENV.STAGE;

if ((stage === 'load' && __VU === 0) || (stage === 'vus' && __VU > 0)) {
  console.log('signal_init.js: looping in init');
  while (true) {}
}

export const options = { vus: 2, iterations: 2 };

export function setup() {
  if (stage === 'setup') {
    console.log('signal_init.js: looping in setup');
    while (true) {}
  }
}

export default function () {}
