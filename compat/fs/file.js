// compat: k6/experimental/fs — open() in init code gives a File (path, read into a Uint8Array until null, seek from SeekMode.Start/Current/End, stat name and size), each VU with its own position; a missing file rejects
import { check } from 'k6';
import { open, SeekMode } from 'k6/experimental/fs';

const file = await open('bonjour.txt');
let missing;
try {
  await open('nowhere.txt');
} catch (e) {
  missing = e;
}

export const options = { vus: 2, iterations: 4, thresholds: { checks: ['rate==1'] } };

export default async function () {
  await file.seek(0, SeekMode.Start);
  const info = await file.stat();
  const buffer = new Uint8Array(4);
  let total = 0;
  let text = '';
  for (;;) {
    const n = await file.read(buffer);
    if (n == null) break;
    total += n;
    text += String.fromCharCode(...buffer.subarray(0, n));
  }
  const atStart = await file.seek(6, SeekMode.Start);
  const forward = await file.seek(2, SeekMode.Current);
  const fromEnd = await file.seek(-2, SeekMode.End);
  check(file, {
    'path is absolute and ends with the name': (f) => f.path.startsWith('/') && f.path.endsWith('/bonjour.txt'),
    'stat gives name and size': () => info.name === 'bonjour.txt' && info.size === 24,
    'reads the whole file then null': () => total === 24 && text === 'Bonjour, tout le monde!\n',
    'seek resolves to the new offset': () => atStart === 6 && forward === 8 && fromEnd === 22,
    'a missing file rejects': () => missing instanceof Error && missing.message.includes('nowhere.txt'),
  });
}
