// An ES module whose default export is a named function.
export default function run() {
  return 'default-run';
}
export { run as alias };
