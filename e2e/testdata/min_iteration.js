// An empty iteration that minIterationDuration stretches to 250 ms: one VU
// for one second makes about four iterations instead of millions.
export const options = { vus: 1, duration: '1s', minIterationDuration: '250ms' };

export default function () {}
