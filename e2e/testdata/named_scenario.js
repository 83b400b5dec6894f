export const options = {
  scenarios: { mine: { executor: 'constant-vus', vus: 2, duration: '1s' } },
};

export default function () {}
