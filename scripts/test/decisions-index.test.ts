import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/decisions.md's index: one row per decision, in the order of the file, with its area and its choice. */

const DECISIONS = readFileSync(join(import.meta.dirname, '../../docs/decisions.md'), 'utf8');

interface Row {
  area: string;
  title: string;
  choice: string;
}

function decisions(markdown: string): Row[] {
  const found: Row[] = [];
  let area = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) area = line.slice(3).trim();
    else if (line.startsWith('### ')) found.push({ area, title: line.slice(4).trim(), choice: '' });
  }
  return found.filter((row) => row.area !== 'Index');
}

function indexRows(markdown: string): Row[] {
  const start = markdown.search(/^## Index$/m);
  const end = markdown.indexOf('\n## ', start + 1);
  return [
    ...markdown.slice(start, end < 0 ? undefined : end).matchAll(/^\| ([^|]+?) \| \[(.+?)\]\(#[^)]*\) \| (.*) \|$/gm),
  ].map(([, area = '', title = '', choice = '']) => ({ area, title: title.replaceAll('\\|', '|'), choice }));
}

describe("decisions.md's index", () => {
  it('has a row for every decision, in the order of the file, under its area', () => {
    const rows = indexRows(DECISIONS);
    expect(rows.map(({ area, title }) => ({ area, title }))).toEqual(
      decisions(DECISIONS).map(({ area, title }) => ({ area, title })),
    );
  });

  it('says each choice in one short line', () => {
    for (const row of indexRows(DECISIONS)) {
      expect(row.choice.trim(), row.title).not.toBe('');
      expect(row.choice.length, row.title).toBeLessThanOrEqual(200);
    }
  });

  it('reads a row and a decision as written', () => {
    const markdown = [
      '## Index',
      '',
      '| Area | Decision | Choice |',
      '|---|---|---|',
      '| Platform | [Errors](#errors) | always `{ statusCode, error, message }` |',
      '',
      '## Platform',
      '',
      '### Errors',
      '- Choice: …',
    ].join('\n');
    expect(indexRows(markdown)).toEqual([
      { area: 'Platform', title: 'Errors', choice: 'always `{ statusCode, error, message }`' },
    ]);
    expect(decisions(markdown)).toEqual([{ area: 'Platform', title: 'Errors', choice: '' }]);
  });
});
