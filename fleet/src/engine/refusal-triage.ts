// What a 429 means: a spent window, or a refusal of that one list (the sandbox's ER19THR gets a
// 429 with the headers of a real one, and the contract says a client cannot tell them apart).
// A 429 on more than one vehicle is first only suspect: its halves go at once, the gate stays
// open. If every part sent is refused too, the window is spent: the gate closes for Retry-After.
// If anything is answered meanwhile, the refusal is about the list: the refused part is split
// again at once, and a lone vehicle refused is asked once more after Retry-After, on its own,
// then ends "not checked". docs/decisions/029 says why.
import { formatRegistration } from "@vics/shared";
import type { Job, Probe } from "./job-queue.ts";
import { allNotChecked, type JobVerdict } from "./job-verdict.ts";
import { REFUSED_ALONE_REASON, THROTTLED_REASON } from "./request-failure.ts";

export interface Triage {
  verdict: JobVerdict;
  /** Words for the progress message while the run isolates a refused vehicle ("" ends them). */
  note?: string;
  /** The window is spent: the gate closes for Retry-After (and the parts go again after it). */
  spent?: boolean;
}

const NOTHING_YET: JobVerdict = { settled: [], followUps: [] };

const count = (n: number) => n.toLocaleString("en-GB");
const vehicles = (n: number) =>
  `${count(n)} ${n === 1 ? "vehicle" : "vehicles"}`;

export class RefusalTriage {
  /** Probes out with no answer seen anywhere in the run since they were sent. */
  private readonly open = new Set<Probe>();
  private readonly maxAttempts: number;

  constructor(maxAttempts: number) {
    this.maxAttempts = maxAttempts;
  }

  /**
   * A 429 on `job`. Undefined: believe it as before (the gate closes, the chunk is split);
   * `gateWaiting`: the gate is already closed for a 429, so the window is known to be spent.
   */
  refused(
    job: Job,
    retryAfterMs: number,
    now: number,
    gateWaiting: boolean,
  ): Triage | undefined {
    if (job.isolated) {
      const verdict = allNotChecked(job, REFUSED_ALONE_REASON);
      // A compliance run's insurance for it goes alone too: one refusal ends it.
      for (const next of verdict.followUps) next.isolated = true;
      return { verdict, note: "" };
    }
    const probe = job.probe;
    if (probe?.answered) return this.isolate(job, retryAfterMs, now);
    if (probe) {
      probe.pending -= 1;
      probe.held.push(job);
      if (probe.pending > 0) return { verdict: NOTHING_YET };
      // Every part sent was refused too: the window really is spent.
      this.open.delete(probe);
      return { verdict: this.spent(probe.held), spent: true, note: "" };
    }
    const [pending] = this.open;
    if (pending && !gateWaiting) {
      // Another 429 while a probe is out: it waits for that probe's word.
      pending.held.push(job);
      return { verdict: NOTHING_YET };
    }
    if (gateWaiting || job.registrations.length === 1) return undefined;
    return this.split(job, retryAfterMs, refusedNote(job));
  }

  /** A request ended without a 429: the window has room, so each open probe's 429 was about its list. */
  answered(now: number): Triage {
    const followUps: Job[] = [];
    let note: string | undefined;
    for (const probe of this.open) {
      probe.answered = true;
      for (const part of probe.held) {
        const triage = this.isolate(part, probe.retryAfterMs, now);
        followUps.push(...triage.verdict.followUps);
        note = triage.note;
      }
      probe.held = [];
    }
    this.open.clear();
    return { verdict: { settled: [], followUps }, note };
  }

  /** The parts go again as they are once the wait is over; a lone vehicle counts its refusals. */
  private spent(parts: readonly Job[]): JobVerdict {
    const verdict: JobVerdict = { settled: [], followUps: [] };
    for (const part of parts) {
      const again = { ...part, probe: undefined };
      if (part.registrations.length > 1) verdict.followUps.push(again);
      else if (part.throttled + 1 >= this.maxAttempts) {
        const given = allNotChecked(part, THROTTLED_REASON);
        verdict.settled.push(...given.settled);
        verdict.followUps.push(...given.followUps);
      } else
        verdict.followUps.push({ ...again, throttled: part.throttled + 1 });
    }
    return verdict;
  }

  private isolate(job: Job, retryAfterMs: number, now: number): Triage {
    if (job.registrations.length > 1) {
      return this.split(job, retryAfterMs, findingNote(job));
    }
    // Refused alone while others are answered: maybe a coincidence, so asked once more, later.
    const again = {
      ...job,
      probe: undefined,
      isolated: true,
      readyAt: now + retryAfterMs,
    };
    return {
      verdict: { settled: [], followUps: [again] },
      note: `The service refuses ${job.registrations.map(formatRegistration).join(", ")}. The other vehicles carry on; it is asked once more when the service's wait is over`,
    };
  }

  private split(job: Job, retryAfterMs: number, note: string): Triage {
    const { registrations } = job;
    const middle = Math.ceil(registrations.length / 2);
    const probe: Probe = {
      retryAfterMs,
      pending: 2,
      answered: false,
      held: [],
    };
    this.open.add(probe);
    const halves = [
      registrations.slice(0, middle),
      registrations.slice(middle),
    ];
    return {
      verdict: {
        settled: [],
        followUps: halves.map((half) => ({
          ...job,
          registrations: half,
          throttled: 0,
          probe,
        })),
      },
      note,
    };
  }
}

function refusedNote(job: Job): string {
  const size = job.registrations.length;
  return `The service refused a batch of ${vehicles(size)}. Checking whether the rate limit is spent or it refuses one vehicle: ${count(Math.ceil(size / 2))} at a time`;
}

function findingNote(job: Job): string {
  const size = job.registrations.length;
  return `The service refused a batch of ${vehicles(size)}. Finding which vehicle it refuses: ${count(Math.ceil(size / 2))} at a time`;
}
