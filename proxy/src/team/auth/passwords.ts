import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { dictionary } from "@zxcvbn-ts/language-common";

const argon2Async = promisify(argon2);

/** OWASP's first argon2id choice: 19 MiB, 2 passes, one lane. */
export const ARGON2_PARAMETERS = { memory: 19_456, passes: 2, parallelism: 1 };
const SALT_BYTES = 16;
const TAG_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing it is not an attack on us. */
export const MAX_PASSWORD_LENGTH = 256;

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

async function derive(
  password: string,
  salt: Buffer,
  parameters: typeof ARGON2_PARAMETERS,
  tagLength: number,
): Promise<Buffer> {
  return argon2Async("argon2id", {
    message: password,
    nonce: salt,
    tagLength,
    ...parameters,
  });
}

/** The PHC string of argon2id over `password`, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const tag = await derive(password, salt, ARGON2_PARAMETERS, TAG_BYTES);
  const { memory, passes, parallelism } = ARGON2_PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(tag)}`;
}

const PHC =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/;

/**
 * Whether `password` is the one `phc` was made from, compared in constant time. The
 * parameters are the stored hash's own, so hashes made before a change of them still verify.
 */
export async function verifyPassword(
  password: string,
  phc: string,
): Promise<boolean> {
  const match = PHC.exec(phc);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, tag] = match;
  const expected = Buffer.from(tag!, "base64");
  const actual = await derive(
    password.slice(0, MAX_PASSWORD_LENGTH + 1),
    Buffer.from(salt!, "base64"),
    {
      memory: Number(memory),
      passes: Number(passes),
      parallelism: Number(parallelism),
    },
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time a real check would, for a sign-in with an unknown email or a user who has
 * no password, so the answer's timing does not tell whether the account exists.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64"));
  await verifyPassword(password, await dummyHash);
  return false;
}

/** zxcvbn-ts's list of 49,000 passwords most often found in breaches. */
const COMMON = new Set(dictionary["passwords-common"] as string[]);

/**
 * Whether the password is a common one, or a common one padded with digits and symbols
 * ("password1234!", "2024dragon!!!!"), the way people meet a length rule.
 */
function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return true;
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
  if (core.length >= 4 && COMMON.has(core)) return true;
  // Few distinct characters: "aaaaaaaaaaaa", "abababababab".
  return new Set(lower).size < 4;
}

/** Why a new password cannot be used, in words a person can act on; undefined when it can. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters. A few ordinary words together make a good password.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (isCommon(password))
    return "This password is on a list of passwords that are often used, so it is easy to guess. Choose another.";
  return undefined;
}
