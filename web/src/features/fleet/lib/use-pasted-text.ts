// What the user pasted, kept in this tab's session storage so a reload does not lose it.
import { useState } from "react";

const KEY = "vics.fleet.pasted";

function stored(): string {
  try {
    return sessionStorage.getItem(KEY) ?? "";
  } catch {
    return ""; // storage blocked: the text lives in the page only
  }
}

/** Forgets the pasted list, once it has become a run. */
export function clearPastedText(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked: there is nothing kept to forget.
  }
}

/**
 * Puts a pasted list back in the box when the tab has lost its text (a list kept from another
 * visit, brought back in a new tab): "Choose a different list" must never empty the box.
 */
export function offerPastedText(text: string): void {
  try {
    if (!sessionStorage.getItem(KEY)) sessionStorage.setItem(KEY, text);
  } catch {
    // Blocked or too large: the box starts empty, as before.
  }
}

export function usePastedText(): [string, (text: string) => void] {
  const [text, setText] = useState(stored);
  return [
    text,
    (next: string) => {
      setText(next);
      try {
        if (next === "") sessionStorage.removeItem(KEY);
        else sessionStorage.setItem(KEY, next);
      } catch {
        // Too large or blocked: still usable, only not kept across a reload.
      }
    },
  ];
}
