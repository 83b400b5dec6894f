// The options are whatever JSON __ENV.OPTIONS holds, so configuration
// errors can be tested from a table.
export const options = JSON.parse(__ENV.OPTIONS || '{}');

export default function () {}
