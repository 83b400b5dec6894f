const ready = false;
if (!ready) {
  throw new Error('boom in init');
}
export default function () {}
