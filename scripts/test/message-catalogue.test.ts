import { DEFAULT_STREAM_SUBJECTS, subjectMatches } from '@lakecams/bus';
import { MESSAGES, serviceInfo } from '@lakecams/contracts/messages';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const CATALOGUE = 'libs/contracts/src/messages.ts';

describe('the message catalogue', () => {
  it('names each subject once, events on the events stream and live messages off it', () => {
    const subjects = MESSAGES.map((message) => message.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const message of MESSAGES) {
      const stored = DEFAULT_STREAM_SUBJECTS.some((pattern) => subjectMatches(pattern, message.subject));
      // Notices and requests on a stream subject would still never mix with events, but events must be stored.
      if (message.kind === 'event') expect(stored, message.subject).toBe(true);
    }
  });

  it('is the only place a subject is written out', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts', '*.tsx'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file && file !== CATALOGUE && !file.startsWith('libs/bus/test/'));
    const subjects = [...MESSAGES.map((message) => message.subject), serviceInfo('identity').subject];
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        continue; // deleted in the working tree
      }
      for (const subject of subjects) {
        if (text.includes(`'${subject}'`) || text.includes(`"${subject}"`) || text.includes(`\`${subject}\``))
          found.push(`${file}: ${subject}`);
      }
    }
    expect(found).toEqual([]);
  });
});
