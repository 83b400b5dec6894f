import exec from 'k6/execution';

export const options = {
  scenarios: { pvu: { executor: 'per-vu-iterations', vus: 4, iterations: 5 } },
};

export default function () {
  console.log(`iit=${exec.scenario.iterationInTest} vu=${exec.vu.idInTest}`);
}
