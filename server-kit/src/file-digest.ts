/**
 * `@vics/server-kit/file-digest`: a file's SHA-256 and size, read as a stream (an import's file
 * or a backup's dump may be gigabytes): what the import records of the file it read, and what
 * a backup's manifest holds of each file it wrote.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export async function fileDigest(
  path: string,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}
