// The export forms bundlers emit: the default function exported under a
// local name, and scenario functions exported renamed and as a const.
import { check } from 'k6';

function main() {
  check(null, { 'default as a local name': () => true });
}
const renamed = () => check(null, { 'exec renamed': () => true });
export const arrow = () => check(null, { 'exec const arrow': () => true });

export { main as default, renamed as other };

export const options = {
  scenarios: {
    main: { executor: 'shared-iterations', iterations: 1 },
    other: { executor: 'shared-iterations', iterations: 1, exec: 'other' },
    arrow: { executor: 'shared-iterations', iterations: 1, exec: 'arrow' },
  },
  thresholds: {
    'checks{check:default as a local name}': ['rate==1'],
    'checks{check:exec renamed}': ['rate==1'],
    'checks{check:exec const arrow}': ['rate==1'],
  },
};
//# sourceMappingURL=exports.js.map
