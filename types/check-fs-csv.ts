// Compiles the k6/experimental/fs and k6/experimental/csv declarations against typical uses.
import { open, SeekMode, File, FileInfo } from 'k6/experimental/fs';
import csv, { Parser, Row } from 'k6/experimental/csv';

export async function prompts(): Promise<string> {
  const file: File = await open('prompts.csv');
  const info: FileInfo = await file.stat();
  const buffer = new Uint8Array(info.size);
  const n: number | null = await file.read(buffer);
  const at: number = await file.seek(-2, SeekMode.End);
  const rows: ReadonlyArray<Row> = await csv.parse(file, { asObjects: true, delimiter: ';', fromLine: 1, toLine: 10 });
  const parser = new csv.Parser(file, { skipFirstLine: true });
  const other: Parser = new Parser(file);
  const next = await parser.next();
  const first = next.done ? '' : (next.value as string[])[0];
  await other.next();
  return `${file.path} ${n ?? 0} ${at} ${rows.length} ${first}`;
}
