import type { MenuEntry } from './header-menu.ts';

/** An administrator's pages; beside the public entries they would push the header onto a second row. */
const ADMINISTRATION_PATHS: ReadonlySet<string> = new Set([
  '/impersonate',
  '/jobs',
  '/edit/webcams',
  '/edit/referers',
  '/edit/codes',
]);

export type MenuItem = MenuEntry | { kind: 'group'; label: string; entries: MenuEntry[] };

/**
 * The menu as the header shows it: the administration pages folded into one "Verwaltung" entry (docs/product.md §3.3).
 */
export function groupMenuEntries(entries: readonly MenuEntry[]): MenuItem[] {
  const isAdministration = (entry: MenuEntry) => entry.kind === 'link' && ADMINISTRATION_PATHS.has(entry.href);
  const administration = entries.filter(isAdministration);
  if (administration.length < 2) return [...entries];
  const items: MenuItem[] = [];
  for (const entry of entries) {
    if (entry === administration[0]) items.push({ kind: 'group', label: 'Verwaltung', entries: administration });
    else if (!isAdministration(entry)) items.push(entry);
  }
  return items;
}
