// compat: modules — TypeScript scripts run as k6 v1 runs them: types stripped, interfaces and generics allowed
import { check } from 'k6';

interface Answer<T> {
  value: T;
  label: string;
}

export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };

function wrap<T>(value: T, label: string): Answer<T> {
  return { value, label };
}

export default function (): void {
  const a: Answer<number> = wrap(42, 'answer');
  check(a, { 'typed values run': (x: Answer<number>) => x.value === 42 && x.label === 'answer' });
}
