import { Counter } from 'k6/metrics';

const hits = new Counter('hits');

export const options = { vus: 1, iterations: 1 };

export default function () { hits.add(1); }
