// spin keeps a JavaScript engine busy for 50 ms at a time: the VUs that
// load the runner's cores in bench/busy.js and bench/truth.js.
export function spin() {
  const end = Date.now() + 50;
  let x = 0;
  while (Date.now() < end) {
    x += Math.sqrt(x + 1);
  }
}
