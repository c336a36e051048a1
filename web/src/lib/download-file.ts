// Saves a file the app made (an export, the template) through the browser's own download.
export function downloadFile(name: string, content: Blob): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers start the download only after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
