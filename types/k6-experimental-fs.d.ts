// Declarations of the k6/experimental/fs module: files read once per run in
// the init context and shared read-only by every VU.
declare module 'k6/experimental/fs' {
  /** Where File.seek counts its offset from. */
  export enum SeekMode {
    Start = 0,
    Current = 1,
    End = 2,
  }

  /** Information on an opened file. */
  export interface FileInfo {
    /** The file's base name. */
    name: string;
    /** Its size in bytes. */
    size: number;
  }

  /** One VU's handle on an opened file: the shared bytes and the VU's own read position. */
  export interface File {
    /** The absolute path of the file. */
    readonly path: string;
    /** Copies the bytes at the read position into buffer; resolves to how many, or null at the end of the file. */
    read(buffer: Uint8Array): Promise<number | null>;
    /** Moves the read position (offset >= 0 from Start, <= 0 from End); resolves to the new position. */
    seek(offset: number, whence: SeekMode): Promise<number>;
    /** Resolves to the file's name and size. */
    stat(): Promise<FileInfo>;
  }

  /**
   * Opens a file, relative to the calling module; init context only. Rejects with an Error named
   * NotFoundError (missing file), InvalidResourceError (a directory), ForbiddenError (outside the
   * init context) or a TypeError.
   */
  export function open(path: string): Promise<File>;
}
