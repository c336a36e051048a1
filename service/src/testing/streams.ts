/**
 * A request body that is produced only as it is read, so a test can tell how much of it
 * the server pulled before it answered.
 */
export function pulledStream(options: { chunkBytes: number; chunks: number }) {
  const chunk = new TextEncoder().encode("x".repeat(options.chunkBytes));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === options.chunks) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    },
    // Nothing is produced ahead of a read.
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}
