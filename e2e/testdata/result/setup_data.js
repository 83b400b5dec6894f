// setup() returns a credential, as setup() often does (a login token);
// handleSummary prints the setup data it gets, or null: what a result file
// keeps of it reaches merge --script.
export const options = { vus: 1, iterations: 1 };

export function setup() {
  return { token: 'S3CR3T-setup-token' };
}

export default function () {}

export function handleSummary(data) {
  return { stdout: JSON.stringify({ setup: data.setup_data === undefined ? null : data.setup_data }) };
}
