import { readFile } from 'node:fs/promises';

/**
 * `node bench/profile-summary.ts <file.cpuprofile> [filter]`: where a `--cpu-prof` profile spends its time,
 * by function (self time) and by package (inclusive), as text for a report. With a filter, only samples
 * whose stack contains a frame matching it are counted (e.g. `sendImage`).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.ts <file.cpuprofile> [function filter]');
  process.exit(2);
}
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const where = (node: ProfileNode) => {
  const url = node.callFrame.url;
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (packageName) return packageName;
  if (url.startsWith('node:')) return url;
  if (!url) return `(${node.callFrame.functionName || 'native'})`;
  return url.replace(/^file:\/\/.*?\/main\//, '');
};
const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'}  ${where(node)}:${node.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((sample, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  // Samples are ~1 ms apart; a long gap is a frozen process (the harness pauses one portal while measuring another).
  if (delta > 100_000) return;
  const stack: ProfileNode[] = [];
  for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
    const node = byId.get(id);
    if (node) stack.push(node);
  }
  if (filter && !stack.some((node) => node.callFrame.functionName.includes(filter))) return;
  const leaf = stack[0];
  if (!leaf || leaf.callFrame.functionName === '(idle)') return;
  total += delta;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + delta);
  for (const place of new Set(stack.map(where))) inclusive.set(place, (inclusive.get(place) ?? 0) + delta);
});

const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, micros]) =>
        `${((100 * micros) / total).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    )
    .join('\n');
console.log(`busy ${(total / 1000).toFixed(0)} ms${filter ? ` in stacks through ${filter}` : ''}\n`);
console.log(`self time by function:\n${top(self, 25)}\n`);
console.log(`inclusive time by package or file:\n${top(inclusive, 25)}`);
