// The files a page saves through the browser's download (a blob URL and an anchor's click),
// with their names, for the tests of the admin pages' downloads.
import { vi } from "vitest";

export function captureDownloads() {
  const saved: { name: string; file: Blob }[] = [];
  let last: Blob | undefined;
  URL.createObjectURL = vi.fn((file: Blob) => {
    last = file;
    return "blob:download";
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    if (last) saved.push({ name: this.download, file: last });
  });
  return saved;
}
