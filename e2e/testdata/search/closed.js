// No arrival rate to scale: a search refuses it.
export const options = { vus: 1, duration: '1s', thresholds: { iterations: ['count>0'] } };
export default function () {}
