// What docs-map.test.ts reads: the code spans of a Markdown file, which of them name a file of
// the repository, what the repository holds, and a decision record's status line. Read from the
// tree at test time, so a folder added or moved by any change is seen without editing a list.
import { execFileSync } from "node:child_process";
import { marked, type Token, type Tokens } from "marked";

const EXTENSIONS =
  /.+\.(ts|tsx|js|mjs|cjs|json|md|css|html|sh|ya?ml|sql|csv|xlsx|conf|txt|service)$/;
const NOT_A_PATH = /[\s*?[\]{}<>()$|=,"']|\.\.|:\/\//;

/** The inline code spans of a Markdown text; fenced blocks are commands and trees, not citations. */
export function codeSpans(markdown: string): string[] {
  return spansOf(marked.lexer(markdown));
}

function spansOf(tokens: Token[]): string[] {
  const spans: string[] = [];
  marked.walkTokens(tokens, (token) => {
    if (token.type === "codespan") spans.push((token as Tokens.Codespan).text);
  });
  return spans;
}

/**
 * The repository path a code span names, or null when it names none. A span is a path when it
 * holds no space, no code, glob or placeholder character and no `..`, is not a URL, an absolute
 * or home path or a package (`@vics/...`), and either ends in a file extension (`chunk-key.ts`)
 * or ends in a slash (a folder: `jobs/`), or has a slash after a first segment that is a folder of
 * the repository (`store/postgres/`, `web/dist`); so `application/json`, `Europe/London`, `zod/mini` or a cluster's `etc/...` are
 * not paths. A `:line` or `#anchor` suffix and a final slash are dropped.
 */
export function pathOf(
  span: string,
  folders: ReadonlySet<string>,
): string | null {
  const text = span.replace(/#.*$/, "").replace(/:\d+(-\d+)?$/, "");
  if (text === "" || NOT_A_PATH.test(text) || /^[/~@]/.test(text)) return null;
  const path = text.replace(/^\.\//, "").replace(/\/$/, "");
  const [first = ""] = path.split("/");
  if (path !== first) return folders.has(first) ? path : null;
  return EXTENSIONS.test(path) || text.endsWith("/") ? path : null;
}

export interface Repository {
  /** Every file of the checkout, tracked or new, as git lists it. */
  files: string[];
  /** Every file and folder path of the checkout, and every tail of one at a slash. */
  names: Set<string>;
  /** The name of every folder, at any depth. */
  folders: Set<string>;
}

/** Tracked and new files alike (git's own list, so node_modules and builds stay out). */
export function readRepository(root: string): Repository {
  const files = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  )
    .split("\n")
    .filter(Boolean);
  const names = new Set<string>();
  const folders = new Set<string>();
  for (const file of files) {
    const segments = file.split("/");
    segments.slice(0, -1).forEach((folder) => folders.add(folder));
    for (let start = 0; start < segments.length; start++) {
      for (let end = start + 1; end <= segments.length; end++) {
        names.add(segments.slice(start, end).join("/"));
      }
    }
  }
  return { files, names, folders };
}

/**
 * The folders directly under `under` that hold a file git lists. Git lists files, not folders, so
 * an empty folder left on one disk (after a move, say) is not asked for, as it is on no other.
 */
export function foldersUnder(files: string[], under: string): string[] {
  const prefix = `${under}/`;
  const folders = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(prefix)) continue;
    const [first, ...rest] = file.slice(prefix.length).split("/");
    if (first !== undefined && rest.length > 0) folders.add(first);
  }
  return [...folders].sort();
}

/** Paths .gitignore names: made at run time or by a build (`data/`, `web/dist`, `bench/results/`). */
export function ignoredPaths(root: string, paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  // Each path also as a folder, since `dist/` matches `web/dist` only when git knows it is one.
  const asked = paths.flatMap((path) => [path, `${path}/`]);
  let out = "";
  try {
    out = execFileSync("git", ["check-ignore", "--no-index", "--stdin"], {
      cwd: root,
      encoding: "utf8",
      input: asked.join("\n"),
    });
  } catch (error) {
    // Exit status 1: none of them is ignored.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  return new Set(
    out
      .split("\n")
      .filter(Boolean)
      .map((path) => path.replace(/\/$/, "")),
  );
}

/**
 * The code spans of architecture.md that describe a workspace: the Workspaces table's row whose
 * first cell is `name/`, and every section whose heading names it ("The proxy's folders").
 */
export function spansAbout(markdown: string, workspace: string): string[] {
  const names = new RegExp(`\\b${workspace}\\b`, "i");
  const spans: string[] = [];
  let inSection = false;
  for (const token of marked.lexer(markdown)) {
    if (token.type === "heading") {
      inSection = names.test((token as Tokens.Heading).text);
      continue;
    }
    if (inSection) {
      spans.push(...spansOf([token]));
    } else if (token.type === "table") {
      for (const row of (token as Tokens.Table).rows) {
        if (row[0]?.text === `\`${workspace}/\``) {
          spans.push(...spansOf(row.flatMap((cell) => cell.tokens)));
        }
      }
    }
  }
  return spans;
}

export interface DecisionHeader {
  status: string;
  date: string;
  /** The files a "superseded by" names. */
  by: string[];
}

const HEADER =
  /^Status: (accepted|superseded by .+|accepted, in part superseded by .+) · Date: (\d{4}-\d{2}-\d{2})$/m;

/** A record's `Status: ... · Date: YYYY-MM-DD` line, or null when it has none. */
export function decisionHeader(markdown: string): DecisionHeader | null {
  const [, status, date] = HEADER.exec(markdown) ?? [];
  if (status === undefined || date === undefined) return null;
  const links = status.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g);
  return { status, date, by: [...links].map(([, file = ""]) => file) };
}

/** The cells of every table row of a Markdown text, trimmed (Prettier pads them). */
export function indexRows(markdown: string): string[][] {
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Table => token.type === "table")
    .flatMap((table) =>
      table.rows.map((row) => row.map((cell) => cell.text.trim())),
    );
}
