/**
 * Bundled into every entry of a dev build (the shell's main.js, a remote's remoteEntry.js): listens to its dev
 * server (scripts/dev.ts) and applies each rebuild as a hot update; React Refresh keeps the components' state.
 * What cannot be applied in place (a module nobody accepts) reloads the page.
 */
interface Hot {
  status(): string;
  check(autoApply: boolean): Promise<unknown[] | null>;
}
declare const __webpack_hash__: string;
declare const __webpack_public_path__: string;

const hot = (import.meta as unknown as { webpackHot?: Hot }).webpackHot;

if (hot && typeof EventSource !== 'undefined') {
  // The dev server answers beside the build's files; publicPath is where this bundle came from.
  const events = new EventSource(new URL('__dev/events', __webpack_public_path__ || window.location.href));
  let latest = __webpack_hash__;
  let applying = false;

  const update = async (): Promise<void> => {
    if (applying || latest === __webpack_hash__ || hot.status() !== 'idle') return;
    applying = true;
    try {
      const updated = await hot.check(true);
      if (!updated) throw new Error('no hot update was found');
      console.info(`[dev] ${updated.length} module(s) updated`);
    } catch (error) {
      console.warn('[dev] the update cannot be applied in place, reloading', error);
      window.location.reload();
      return;
    } finally {
      applying = false;
    }
    // Rebuilt again while this update was applied.
    void update();
  };

  events.addEventListener('built', (event) => {
    latest = (JSON.parse((event as MessageEvent<string>).data) as { hash: string }).hash;
    void update();
  });
  events.addEventListener('failed', (event) => {
    const { errors } = JSON.parse((event as MessageEvent<string>).data) as { errors: string[] };
    console.error(`[dev] the build failed, the page keeps the last good one:\n${errors.join('\n\n')}`);
  });
}
