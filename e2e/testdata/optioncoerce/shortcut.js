// The execution shortcut read from the environment, as strings: k6 reads
// vus "2" and iterations "4" as numbers, and refuses vus "two".
export const options = { vus: __ENV.VUS, iterations: __ENV.ITERATIONS };

export default function () {}
