// The figures of one bench run, by key: what each measurement hands in and the table reads. Its
// own module because report.ts builds the table from costs.ts's keys and costs.ts makes figures:
// here, costs.ts does not import the table to know their shape.
export type Figures = Record<string, number | null | undefined>;
