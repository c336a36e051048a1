// A count as the app prints it: "1,234", grouped as people in the UK read numbers, whatever the
// browser's language.
export const count = (value: number) => value.toLocaleString("en-GB");
