// What a bench run has found so far: its figures, a note for each figure it could not measure,
// and the scenarios that failed. A failed scenario is said at once and the run goes on, so one
// broken server does not hide the figures of the others; the bench then exits 1.
import type { Figures } from "./figures.ts";

export interface Recorder {
  figures: Figures;
  notes: Record<string, string>;
  failures: string[];
  say(line: string): void;
  /** Runs `work`, which sets `keys` in figures; on a throw they become null and noted. */
  scenario(
    keys: string[],
    work: () => Promise<void>,
    label?: string,
  ): Promise<void>;
  /** A scenario this machine cannot run (a tool not installed): null figures, noted, said. */
  skip(keys: string[], why: string): void;
}

export function createRecorder(): Recorder {
  const recorder: Recorder = {
    figures: {},
    notes: {},
    failures: [],
    say: (line) => console.log(line),
    async scenario(keys, work, label = keys.join(", ")) {
      const started = performance.now();
      recorder.say(`- ${label}...`);
      try {
        await work();
        const seconds = (performance.now() - started) / 1000;
        recorder.say(`  done in ${seconds.toFixed(1)} s`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        recorder.failures.push(message);
        console.error(`  FAILED: ${message}`);
        for (const key of keys) {
          recorder.figures[key] = null;
          recorder.notes[key] = "FAILED (see the log above)";
        }
      }
    },
    skip(keys, why) {
      for (const key of keys) {
        recorder.figures[key] = null;
        recorder.notes[key] = `skipped: ${why}`;
      }
      recorder.say(`- ${keys[0] ?? "a scenario"}: skipped, ${why}`);
    },
  };
  return recorder;
}
