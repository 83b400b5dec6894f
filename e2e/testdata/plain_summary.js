// No handleSummary(): the text summary is printed.
import { Counter } from 'k6/metrics';

const marker = new Counter('plain_marker');

export const options = { iterations: 2 };

export default function () {
  marker.add(1);
}
