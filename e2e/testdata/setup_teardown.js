// setup() and teardown() log that they ran; the options come from
// __ENV.OPTIONS so a test can set noSetup / noTeardown in the script.
export const options = JSON.parse(__ENV.OPTIONS || '{}');

export function setup() {
  console.log('setup ran');
  return { from: 'setup' };
}

export default function (data) {
  console.log(`iteration data: ${JSON.stringify(data)}`);
}

export function teardown() {
  console.log('teardown ran');
}
