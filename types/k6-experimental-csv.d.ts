// Declarations of the k6/experimental/csv module: CSV files opened with
// k6/experimental/fs, parsed whole into rows shared by every VU or streamed.
declare module 'k6/experimental/csv' {
  import { File } from 'k6/experimental/fs';

  /** Options of parse and Parser; lines are the file's records counted from 0, the header being line 0. */
  export interface Options {
    /** The one-character field delimiter; ',' by default. */
    delimiter?: string;
    /** Rows as objects keyed by line 0's fields (which is then never a row); false by default. */
    asObjects?: boolean;
    /** Drops line 0; false by default. */
    skipFirstLine?: boolean;
    /** The first line returned; 0 by default. */
    fromLine?: number;
    /** The last line returned (inclusive); to the end by default. */
    toLine?: number;
  }

  /** A row: its fields, or with asObjects an object keyed by the header. */
  export type Row = string[] | Record<string, string>;

  /** Parses the whole file once per run (init context only) into read-only rows shared by every VU. */
  export function parse(file: File, options?: Options): Promise<ReadonlyArray<Row>>;

  /** Streams a file's rows, one per next(). */
  export class Parser {
    constructor(file: File, options?: Options);
    /** Resolves to the next row, then to {done: true, value: undefined}. */
    next(): Promise<{ done: false; value: Row } | { done: true; value: undefined }>;
  }

  const csv: {
    parse: typeof parse;
    Parser: typeof Parser;
  };
  export default csv;
}
