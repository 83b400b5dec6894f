export default function () {}
export function teardown() {
  throw new Error('boom in teardown');
}
