import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every front end has one shape, so a newcomer finds a call, a picture address or a route in one place
 * (docs/decisions.md, "One API module per remote, one route table"): every `/api/…` path in its API modules
 * (`src/api/`), every picture address in `src/api/picture-urls.ts`, and its `<Routes>` built from PAGE_ROUTES
 * (libs/contracts) with `routesOf`, never a route path written out.
 */

const ROOT = join(import.meta.dirname, '../..');
const FRONT_ENDS = ['shell', 'mf-map', 'mf-account', 'mf-admin'];

/** Front ends not in the shape yet, and why. A front end leaves this list when it has the shape (a test says so). */
const KNOWN_EXCEPTIONS: Readonly<Record<string, string>> = {};

const API_FOLDER = 'src/api/';
const PICTURE_MODULE = 'src/api/picture-urls.ts';

/** What builds a picture's address: the entitlement URLs of svc-imaging, and the pictures' immutable names. */
const PICTURE_ADDRESS = /\/api\/Image\/(?:Get|Embed|Zoom|Timelapse)\/|\/pictures\/|\bPICTURE_PATH_PREFIX\b/;
/** An `/api/` path, absolute or on a host; `../api/` is a module's folder. */
const API_PATH = /(?<!\.)\/api\//;

/**
 * The source without its comments: strings, templates, regular expressions and code stay, so a path said in a
 * comment counts for nothing and a path in code or text counts wherever it is.
 */
function withoutComments(source: string): string {
  let out = '';
  let i = 0;
  // The last character of code that was no space: a `/` after one of these starts a regular expression.
  let previous = '';
  const regexAfter = '(,=:[!&|?{};+-*%<>~^';
  while (i < source.length) {
    const c = source[i] ?? '';
    const next = source[i + 1] ?? '';
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      out += ' ';
      continue;
    }
    let end = i + 1;
    if (c === "'" || c === '"' || c === '`') {
      while (end < source.length && source[end] !== c) end += source[end] === '\\' ? 2 : 1;
      end++;
    } else if (c === '/' && (previous === '' || regexAfter.includes(previous))) {
      let inClass = false;
      while (end < source.length && source[end] !== '\n' && (inClass || source[end] !== '/')) {
        if (source[end] === '[') inClass = true;
        else if (source[end] === ']') inClass = false;
        end += source[end] === '\\' ? 2 : 1;
      }
      end++;
    }
    out += source.slice(i, end);
    if (!/\s/.test(c)) previous = end > i + 1 ? 'x' : c;
    i = end;
  }
  return out;
}

/** The front end's source files as git sees them (tracked or new), relative to its folder, with their text less comments. */
function sources(app: string): Map<string, string> {
  const cwd = join(ROOT, app);
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', 'src/*.ts', 'src/*.tsx'], {
    cwd,
    encoding: 'utf8',
  });
  const files = listed.split('\n').filter((file) => file && existsSync(join(cwd, file)));
  return new Map(files.map((file) => [file, withoutComments(readFileSync(join(cwd, file), 'utf8'))]));
}

/** The lines of `text` matching `pattern`, trimmed, for a message that shows where. */
const linesMatching = (text: string, pattern: RegExp) =>
  text
    .split('\n')
    .filter((line) => pattern.test(line))
    .map((line) => line.trim());

/** What keeps `app` from the shape; empty when it has it. */
function problemsOf(app: string, files: ReadonlyMap<string, string> = sources(app)): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    const inApi = file.startsWith(API_FOLDER);
    for (const line of linesMatching(text, API_PATH)) {
      if (!inApi) problems.push(`${file}: an /api/ path outside ${API_FOLDER}: ${line}`);
      else if (file === PICTURE_MODULE && !PICTURE_ADDRESS.test(line))
        problems.push(`${file}: an API call among the picture addresses: ${line}`);
    }
    if (file !== PICTURE_MODULE) {
      for (const line of linesMatching(text, PICTURE_ADDRESS))
        problems.push(`${file}: a picture address outside ${PICTURE_MODULE}: ${line}`);
    }
    for (const line of linesMatching(text, /<Route\b[^>]*\b(?:index(?=[\s/>])|path="(?!\*")|path=\{'(?!\*'))/))
      problems.push(`${file}: a route written out instead of taken from PAGE_ROUTES with routesOf: ${line}`);
  }
  return problems;
}

describe('one shape for every front end', () => {
  it.each(FRONT_ENDS)('%s has it, or is a named exception that does not have it yet', (app) => {
    const reason = KNOWN_EXCEPTIONS[app];
    if (reason === undefined) expect(problemsOf(app)).toEqual([]);
    // Once an exception has the shape, it leaves KNOWN_EXCEPTIONS, so the list only shrinks.
    else expect(problemsOf(app), `${app} has the shape now: take it out of KNOWN_EXCEPTIONS`).not.toEqual([]);
  });

  it('names only front ends that exist as exceptions, each with its reason', () => {
    expect(FRONT_ENDS).toEqual(expect.arrayContaining(Object.keys(KNOWN_EXCEPTIONS)));
    expect(Object.values(KNOWN_EXCEPTIONS).every((reason) => reason.length > 20)).toBe(true);
  });

  it('finds a path, a picture address and a route where they must not be, and not in comments', () => {
    const files = new Map(
      Object.entries({
        'src/api/admin-api.ts': "const a = () => get('/api/Webcam/GetCameras'); // not '/pictures/x'",
        'src/api/picture-urls.ts': "export const p = (n) => '/api/Image/Get/camera/' + n;\nconst c = '/api/Code/X';",
        'src/pages/page.tsx': [
          '/* GET /api/Webcam/GetCameras */',
          "const url = 'https://example.org/x'; const b = `/api/Jobs/` + x;",
          'const re = /"\\/api\\//; const ok = 1;',
          "import { x } from '../api/x.ts'; <img src={'/pictures/' + name} />",
          '<Route path="jobs" element={<Jobs />} />',
          '<Route path="*" element={null} />',
          '<Route index element={<Home />} />',
          "<Route key={route} index={route === ''} path={route} element={<Page />} />",
        ].join('\n'),
      }).map(([file, text]) => [file, withoutComments(text)]),
    );
    expect(problemsOf('any', files)).toEqual([
      "src/api/picture-urls.ts: an API call among the picture addresses: const c = '/api/Code/X';",
      "src/pages/page.tsx: an /api/ path outside src/api/: const url = 'https://example.org/x'; const b = `/api/Jobs/` + x;",
      "src/pages/page.tsx: a picture address outside src/api/picture-urls.ts: import { x } from '../api/x.ts'; <img src={'/pictures/' + name} />",
      'src/pages/page.tsx: a route written out instead of taken from PAGE_ROUTES with routesOf: <Route path="jobs" element={<Jobs />} />',
      'src/pages/page.tsx: a route written out instead of taken from PAGE_ROUTES with routesOf: <Route index element={<Home />} />',
    ]);
  });
});
