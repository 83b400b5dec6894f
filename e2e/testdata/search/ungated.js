// An arrival rate but no threshold: nothing to search under.
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1 } },
};
export default function () {}
