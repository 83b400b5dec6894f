// Logs from the init code and from the one iteration.
console.log('init says hello');

export default function () {
  console.log(`iteration ${__ITER} says hello`);
}
