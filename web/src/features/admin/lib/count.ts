// A count as the admin pages print it: "1,234", grouped as people in the UK read numbers.
export const count = (value: number) => value.toLocaleString("en-GB");
