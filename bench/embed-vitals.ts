import * as chromeLauncher from 'chrome-launcher';
import { writeFile } from 'node:fs/promises';
import { gzipBytes, LIGHTHOUSE_CONFIG } from './vitals.ts';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS } from '../e2e/browser.ts';
import type { BenchContext } from './context.ts';
import { ensureResultsDir, log, median, REPEATS, type ResultRow, row, verdict } from './harness.ts';

/**
 * The embedded player on a partner's page (docs/decisions.md, "The embedded player's two forms"): Lighthouse 12 in
 * its default mobile setting (slow 4G, 4× CPU) on a plain page of another origin (nginx) with the player, in turns
 * with the same page without it, and the player's script before any interaction, gzip.
 */
const CAMERA = 'Rapperswil-Seedamm';
const TARGETS = { performance: 95, scriptKiB: 15 };
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** A partner's article: a heading, text, and (with the player) the snippet camera setup hands out. */
function partnerPage(portal: string, withPlayer: boolean): string {
  const text =
    '<p>Das Wetter am oberen Zürichsee: Wind aus West, 12 Grad, am Nachmittag Aufhellungen. Die Wassertemperatur liegt bei 9 Grad, der Pegel ist normal.</p>';
  const player = withPlayer
    ? `<script type="module" src="${portal}/embed/v1.js" async></script><seecam-player camera="${CAMERA}"></seecam-player>`
    : '';
  // The partner reserves the player's box in its own style sheet, as README "Embedding a camera" advises.
  return `<!doctype html><html lang="de-CH"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Seewetter</title><meta name="description" content="Das Wetter am Zürichsee"><style>body{font-family:sans-serif;margin:1rem;max-width:40rem}seecam-player{display:block;width:640px;max-width:100%;aspect-ratio:16/10}</style></head><body><h1>Seewetter am Zürichsee</h1>${text}${player}${text}</body></html>`;
}

interface Run {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  lcpElement: string;
}

async function audit(url: string, label: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROMIUM_FLAGS] });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      LIGHTHOUSE_CONFIG,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    await writeFile(
      join(await ensureResultsDir('embed-vitals'), `${label.replace(/[^a-z0-9]+/gi, '-')}.json`),
      JSON.stringify(lhr),
    );
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const lcpItems = (
      lhr.audits['largest-contentful-paint-element']?.details as {
        items?: { items?: { node?: { selector?: string } }[] }[];
      }
    )?.items;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
      lcpMs: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      tbtMs: numeric('total-blocking-time'),
      lcpElement: lcpItems?.[0]?.items?.[0]?.node?.selector ?? '?',
    };
  } finally {
    await chrome.kill();
  }
}

export async function embedVitals(context: BenchContext): Promise<ResultRow[]> {
  const portal = await context.embedded();
  const nginx = await context.nginx();
  await nginx.put('/partner-plain.html', partnerPage(portal.url, false));
  await nginx.put('/partner-player.html', partnerPage(portal.url, true));
  const targets = [
    { name: 'plain page', url: `${nginx.url}/partner-plain.html` },
    { name: 'with the player', url: `${nginx.url}/partner-player.html` },
  ];
  // Unmeasured first: Chromium and Lighthouse from a cold disk, the player's first picture.
  for (const target of targets) await audit(target.url, `warm-up ${target.name}`);
  const runs = new Map<string, Run[]>(targets.map((target) => [target.name, []]));
  for (let i = 0; i < REPEATS; i++) {
    for (const target of targets) {
      const result = await audit(target.url, `${target.name} ${i + 1}`);
      runs.get(target.name)?.push(result);
      log(
        `embed ${target.name} #${i + 1}: performance ${result.performance}, LCP ${result.lcpMs.toFixed(0)} ms (${result.lcpElement}), CLS ${result.cls.toFixed(3)}, TBT ${result.tbtMs.toFixed(0)} ms`,
      );
    }
  }
  const m = (name: string, key: keyof Omit<Run, 'lcpElement'>) => median((runs.get(name) ?? []).map((run) => run[key]));
  const entry = await gzipBytes(`${portal.url}/embed/v1.js`);
  const player = /import"\.\/([^"]+)"/.exec(await (await fetch(`${portal.url}/embed/v1.js`)).text())?.[1];
  const script = entry + (player ? await gzipBytes(`${portal.url}/embed/${player}`) : Number.NaN);
  const common = {
    benchmark: 'embed-vitals',
    case: 'partner page with the player',
    baselineLabel: 'the same page without it',
  };
  const performance = m('with the player', 'performance');
  return [
    row({
      ...common,
      metric: 'performance score (Lighthouse mobile)',
      unit: 'count',
      portal: performance,
      baseline: m('plain page', 'performance'),
      target: `≥ ${TARGETS.performance}`,
      verdict: verdict(performance >= TARGETS.performance),
    }),
    row({
      ...common,
      metric: 'LCP',
      unit: 'ms',
      portal: m('with the player', 'lcpMs'),
      baseline: m('plain page', 'lcpMs'),
    }),
    row({ ...common, metric: 'CLS', unit: '', portal: m('with the player', 'cls'), baseline: m('plain page', 'cls') }),
    row({
      ...common,
      metric: 'TBT',
      unit: 'ms',
      portal: m('with the player', 'tbtMs'),
      baseline: m('plain page', 'tbtMs'),
    }),
    row({
      ...common,
      metric: 'player script before interaction (gzip)',
      unit: 'KiB',
      portal: script / 1024,
      baseline: 0,
      target: `≤ ${TARGETS.scriptKiB} KiB`,
      verdict: verdict(script / 1024 <= TARGETS.scriptKiB),
      note: `/embed/v1.js and ${player}`,
    }),
  ];
}
