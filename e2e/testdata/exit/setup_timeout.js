import { sleep } from 'k6';

export const options = { setupTimeout: '300ms' };

export function setup() {
  sleep(10);
}
export default function () {}
