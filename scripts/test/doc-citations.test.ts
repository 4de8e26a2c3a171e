import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Citations of documents hold: `docs/decisions.md, "Title"`, `decisions.md "Title"` and `docs/product.md §4.2`
 * in any source or doc file name a document that exists and a heading or numbered section it has; the links
 * inside docs/ reach their anchors; nothing cites documents that live outside the repository.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = 'scripts/test/doc-citations.test.ts';
const SCANNED = /(\.(ts|tsx|mts|js|mjs|md|json|ya?ml|sh|conf|template|css|ejs|html)|Dockerfile)$/;

/** Documents outside the repository, which a newcomer does not have. */
const OUTSIDE_DOCUMENTS = [/\bspec\s*§/i, /\bARCHITECTURE\.md\b/, /\bTOOLCHAIN\.md\b/, /portal-spec/i];

/** A document path, then `, "Title"`, ` "Title"`, or `§4.2` (more sections may follow: `§4.2, §5`). */
const CITATION =
  /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.md)(?:,?\s+"([^"\n]{1,160})"|,?\s*(§\s?\d+(?:\.\d+)*(?:\s*(?:,|and|und)\s*§\s?\d+(?:\.\d+)*)*))/g;
/** Comment markers at the start of a line that continues a citation: `*`, `//`, `#`. */
const CONTINUATION = /^\s*(?:\/\/+|\*(?!\*)|#+)?\s*/;

interface Citation {
  file: string;
  line: number;
  document: string;
  title?: string;
  sections?: string[];
}

interface Heading {
  text: string;
  /** `4.2` for `### 4.2 The map`; null for an unnumbered heading. */
  number: string | null;
  anchor: string;
}

/** Source and doc files of the repository, tracked or about to be, without what git ignores. */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0'))]
    .filter((file) => SCANNED.test(file) && !file.split('/').includes('node_modules'))
    .filter((file) => file !== 'package-lock.json' && existsSync(join(ROOT, file)));
}

/** Citations in a file's text; a title may run on into the next comment line. */
function citationsIn(file: string, text: string): Citation[] {
  const lines = text.split('\n');
  const found: Citation[] = [];
  lines.forEach((line, index) => {
    const following = lines.slice(index + 1, index + 3).map((next) => next.replace(CONTINUATION, ''));
    const joined = [line, ...following].join(' ');
    for (const match of joined.matchAll(CITATION)) {
      if ((match.index ?? 0) >= line.length) break;
      const [, document = '', title, sections] = match;
      found.push({
        file,
        line: index + 1,
        document,
        ...(title === undefined ? {} : { title: title.replace(/\s+/g, ' ').trim() }),
        ...(sections === undefined ? {} : { sections: [...sections.matchAll(/\d+(?:\.\d+)*/g)].map((m) => m[0]) }),
      });
    }
  });
  return found;
}

/** Markdown with its inline code blanked out: `docs/x.md, "Title"` in backticks shows the form, it cites nothing. */
const withoutCodeSpans = (markdown: string) => markdown.replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as read: without code ticks, emphasis or link targets. */
const plainHeading = (raw: string) =>
  raw
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`|\*\*/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();

function headingsOf(markdown: string): Heading[] {
  const headings: Heading[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^#{1,6}\s+(.+)$/.exec(line);
    if (!match) continue;
    const text = plainHeading(match[1] ?? '');
    const base = anchorOf(text);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    headings.push({
      text,
      number: /^(\d+(?:\.\d+)*)\.?\s/.exec(text)?.[1] ?? null,
      anchor: repeats === 0 ? base : `${base}-${repeats}`,
    });
  }
  return headings;
}

const normalized = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** The repository path a cited document means: a path from the root, or a bare name in docs/, at the root or beside the citing file. */
function resolveDocument(document: string, citingFile: string): string | null {
  const candidates = document.includes('/')
    ? [document, join(dirname(citingFile), document)]
    : [join('docs', document), document, join(dirname(citingFile), document)];
  return candidates.map((candidate) => normalize(candidate)).find((path) => existsSync(join(ROOT, path))) ?? null;
}

/** What is wrong with one citation, or null when it holds. */
function problemOf(citation: Citation, headingsOfDocument: (path: string) => Heading[]): string | null {
  const path = resolveDocument(citation.document, citation.file);
  if (!path) return `${citation.document} does not exist`;
  const headings = headingsOfDocument(path);
  if (citation.title !== undefined) {
    const title = normalized(citation.title);
    return headings.some((heading) => normalized(heading.text).startsWith(title))
      ? null
      : `${path} has no heading "${citation.title}"`;
  }
  const missing = (citation.sections ?? []).filter((number) => !headings.some((heading) => heading.number === number));
  return missing.length === 0 ? null : `${path} has no section ${missing.map((number) => `§${number}`).join(', ')}`;
}

/** Links from one doc to a heading of itself or of another doc (`[x](decisions.md#errors)`, `[x](#errors)`). */
function brokenLinksIn(file: string, text: string, headingsOfDocument: (path: string) => Heading[]): string[] {
  const broken: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [, target = ''] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const linked = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, linked))) broken.push(`${file}:${index + 1}: ${target}: no such file`);
      else if (anchor && linked.endsWith('.md') && !headingsOfDocument(linked).some((h) => h.anchor === anchor))
        broken.push(`${file}:${index + 1}: ${target}: no such heading`);
    }
  });
  return broken;
}

describe('citations of documents', () => {
  const files = repositoryFiles();
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const headingCache = new Map<string, Heading[]>();
  const headingsOfDocument = (path: string) => {
    let headings = headingCache.get(path);
    if (!headings) {
      headings = headingsOf(texts.get(path) ?? readFileSync(join(ROOT, path), 'utf8'));
      headingCache.set(path, headings);
    }
    return headings;
  };
  const citations = [...texts]
    .filter(([file]) => file !== SELF)
    .flatMap(([file, text]) => citationsIn(file, file.endsWith('.md') ? withoutCodeSpans(text) : text));

  it('finds the citations the code makes (the scan itself works)', () => {
    const documents = new Set(citations.map((citation) => citation.document));
    expect(documents).toContain('docs/decisions.md');
    expect(citations.some((citation) => citation.title !== undefined)).toBe(true);
  });

  it('name an existing document and a heading or section in it', () => {
    const problems = citations.flatMap((citation) => {
      const problem = problemOf(citation, headingsOfDocument);
      return problem ? [`${citation.file}:${citation.line}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('reach every heading they link to inside docs/', () => {
    const broken = [...texts]
      .filter(([file]) => file.startsWith('docs/') && file.endsWith('.md'))
      .flatMap(([file, text]) => brokenLinksIn(file, text, headingsOfDocument));
    expect(broken).toEqual([]);
  });

  it('cite no document that lives outside the repository', () => {
    const found = [...texts]
      .filter(([file]) => file !== SELF)
      .flatMap(([file, text]) =>
        text
          .split('\n')
          .flatMap((line, index) =>
            OUTSIDE_DOCUMENTS.filter((pattern) => pattern.test(line)).map(
              () => `${file}:${index + 1}: ${line.trim().slice(0, 120)}`,
            ),
          ),
      );
    expect(found).toEqual([]);
  });
});

describe('the citation scanner', () => {
  it('reads every shape of citation, a title running on into the next comment line included', () => {
    const text = [
      '/** Rule (docs/decisions.md, "Pictures in',
      ' * the gateway\'s memory"). */',
      '// bench: docs/decisions.md "Native memory"; compose: decisions.md, "Image storage"',
      '// docs/product.md §4.2, §7 and docs/product.md, §9.3.1',
    ].join('\n');
    expect(citationsIn('x.ts', text)).toEqual([
      { file: 'x.ts', line: 1, document: 'docs/decisions.md', title: "Pictures in the gateway's memory" },
      { file: 'x.ts', line: 3, document: 'docs/decisions.md', title: 'Native memory' },
      { file: 'x.ts', line: 3, document: 'decisions.md', title: 'Image storage' },
      { file: 'x.ts', line: 4, document: 'docs/product.md', sections: ['4.2', '7'] },
      { file: 'x.ts', line: 4, document: 'docs/product.md', sections: ['9.3.1'] },
    ]);
  });

  it('ignores a file name that is only listed, and a form shown as code in Markdown', () => {
    expect(citationsIn('package.json', '"files": ["README.md", "dist"], see docs/product.md for more')).toEqual([]);
    expect(citationsIn('a.md', withoutCodeSpans('Cite as `docs/decisions.md, "Title"`.'))).toEqual([]);
  });

  it('numbers and anchors headings as GitHub does', () => {
    const headings = headingsOf(
      [
        '# Product',
        '## 4. Public pages',
        '### 4.2 The map',
        '```',
        '## 9. Not a heading',
        '```',
        '## Errors',
        '## Errors',
      ].join('\n'),
    );
    expect(headings.map((h) => [h.number, h.anchor])).toEqual([
      [null, 'product'],
      ['4', '4-public-pages'],
      ['4.2', '42-the-map'],
      [null, 'errors'],
      [null, 'errors-1'],
    ]);
    expect(anchorOf('Signed-in quality for pictures in <img>')).toBe('signed-in-quality-for-pictures-in-img');
    expect(anchorOf('What "JavaScript fetched" counts')).toBe('what-javascript-fetched-counts');
  });
});
