// Types a whole value at once (pasted), as a password manager would: quicker than key by key.
interface Typist {
  click: (element: Element) => Promise<void>;
  paste: (text: string) => Promise<void>;
}

export async function fill(user: Typist, field: HTMLElement, value: string) {
  await user.click(field);
  await user.paste(value);
}
