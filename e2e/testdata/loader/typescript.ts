// A TypeScript script: type annotations, an interface and a type-only
// import from a .mts module. One iteration; its check must pass.
import { check } from 'k6';
import type { Reading } from './lib/reading.mts';
import { describe } from './lib/reading.mts';

interface Limits {
  iterations: number;
  thresholds: Record<string, string[]>;
}

export const options: Limits = {
  iterations: 1,
  thresholds: { checks: ['rate==1'] },
};

export default function (): void {
  const r: Reading = { name: 'latency', value: 42 };
  check(r, { 'typed code ran': (x: Reading) => describe(x) === 'latency=42' });
}
