// The little of a page's globals the bench's in-page functions touch. The bench compiles for
// Node (no DOM library), so functions handed to page.evaluate cast globalThis to this.
export interface PageElement {
  textContent: string | null;
  nextElementSibling: PageElement | null;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  scrollIntoView(): void;
}

export interface PageScope {
  document: {
    querySelectorAll(selector: string): ArrayLike<PageElement>;
    addEventListener(
      type: string,
      listener: () => void,
      options: { capture: boolean; once: boolean },
    ): void;
  };
  performance: { now(): number };
  requestAnimationFrame(callback: (time: number) => void): number;
  /** When the bench saw the file input change (performance.now()). */
  benchUploadAt?: number;
}
