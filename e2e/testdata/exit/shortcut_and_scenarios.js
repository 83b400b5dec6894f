export const options = {
  duration: '1s',
  scenarios: { s: { executor: 'shared-iterations', iterations: 2 } },
};
export default function () {}
