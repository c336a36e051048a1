// A file the import cannot read past some line: an unclosed quote, an endless line, bytes that
// are not text, a header without the columns its kind needs. Nothing of it is imported: a
// snapshot read only up to its damage would remove every record after it.

export class FileRefused extends Error {
  /** The line the trouble starts on; 0 when it is the whole file. */
  readonly line: number;

  constructor(line: number, reason: string) {
    super(reason);
    this.name = "FileRefused";
    this.line = line;
  }
}
