import exec from 'k6/execution';

export const options = {
  scenarios: { si: { executor: 'shared-iterations', vus: 3, iterations: 31 } },
};

export default function () {
  console.log(`iit=${exec.scenario.iterationInTest} vu=${exec.vu.idInTest}`);
}
