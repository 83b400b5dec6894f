import exec from 'k6/execution';

export const options = {
  scenarios: {
    car: { executor: 'constant-arrival-rate', rate: 30, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5 },
  },
};

export default function () {
  console.log(`iit=${exec.scenario.iterationInTest} vu=${exec.vu.idInTest}`);
}
