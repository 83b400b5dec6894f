// Every iteration throws one of two messages; the run must go on.
export const options = { iterations: 40 };

export default function () {
  if (__ITER % 2 === 0) {
    throw new Error('even iteration failed');
  }
  throw new Error('odd iteration failed');
}
