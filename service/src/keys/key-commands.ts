import { PLAN_LIMITS, PlanSchema } from "@vics/shared";
import { DuplicateKeyNameError, type KeyStore } from "../store/store.ts";
import { issueApiKey } from "./api-key.ts";

/** A failure the person at the terminal can fix; printed without a stack. */
export class KeyCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyCommandError";
  }
}

export type Print = (line: string) => void;

const PLANS = PlanSchema.options.join(", ");

export async function createKeyCommand(
  store: KeyStore,
  print: Print,
  args: { plan?: string; name?: string },
  now: Date,
): Promise<void> {
  const plan = PlanSchema.safeParse(args.plan);
  if (!plan.success)
    throw new KeyCommandError(
      `--plan must be one of: ${PLANS} (got ${JSON.stringify(args.plan ?? "")})`,
    );
  const name = args.name?.trim();
  if (!name)
    throw new KeyCommandError('--name is required, e.g. --name "fleet team"');
  try {
    const { key } = await issueApiKey(store, plan.data, name, now);
    print(
      `Created key "${name}" on the ${plan.data} plan (${PLAN_LIMITS[plan.data]} requests per 60 s).`,
    );
    print("Store it now: it is shown only once and cannot be recovered.");
    // The key alone on the last line, so scripts can take it with `tail -n 1`.
    print(key);
  } catch (error) {
    if (error instanceof DuplicateKeyNameError)
      throw new KeyCommandError(`${error.message}; choose another --name`);
    throw error;
  }
}

export async function listKeysCommand(
  store: KeyStore,
  print: Print,
): Promise<void> {
  const keys = await store.listKeys();
  if (keys.length === 0) {
    print(
      "No keys yet. Create one with: scripts/keys create --plan <plan> --name <text>",
    );
    return;
  }
  const rows = [
    ["NAME", "PLAN", "CREATED", "REVOKED"],
    ...keys.map((key) => [
      key.name,
      key.plan,
      key.createdAt,
      key.revokedAt ?? "-",
    ]),
  ];
  const widths = [0, 1, 2].map((column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of rows)
    print(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}

export async function revokeKeyCommand(
  store: KeyStore,
  print: Print,
  name: string | undefined,
  now: Date,
): Promise<void> {
  if (!name)
    throw new KeyCommandError(
      "Name the key to revoke: scripts/keys revoke <name>",
    );
  const revoked = await store.revokeKey(name, now.toISOString());
  if (!revoked)
    throw new KeyCommandError(`No key named "${name}". See: scripts/keys list`);
  const revokedAt = revoked.revokedAt ?? now.toISOString();
  print(
    revokedAt < now.toISOString()
      ? `Key "${revoked.name}" was already revoked (at ${revokedAt}); nothing changed.`
      : `Revoked key "${revoked.name}" (at ${revokedAt}). Requests with it now get 401.`,
  );
}
