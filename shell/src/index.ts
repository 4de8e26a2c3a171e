import { afterFirstPaint, firstViewLoaded } from './first-view.ts';
import { registerRemotesOnce } from './remote-manifests.ts';
import { storedOverridesFollowingLink } from './remote-overrides.ts';

// The page's HTML (rendered on the server) paints before any of the shell's work, and a camera page's picture
// (first-view.ts) loads before the scripts compete with it.
await afterFirstPaint();
await firstViewLoaded();

// Before the async boundary: the open page's remote loads while React DOM does, not after it.
const overrides = storedOverridesFollowingLink();
const registering = registerRemotesOnce(overrides);
// A developer's browser with a dev remote waits for it: the share scope must hold its React (a development build,
// which React Refresh needs) before the shell takes one. Every other browser goes on at once.
if (Object.keys(overrides).length > 0) await registering;

// Async boundary: shared singletons must be negotiated before any of them is used
// (docs/architecture.md, "Module Federation: what to keep in mind").
import('./bootstrap.ts').catch((error: unknown) => {
  console.error('The shell could not start', error);
  const main = document.getElementById('main');
  if (main) main.textContent = 'Die Seite konnte nicht geladen werden. Bitte laden Sie sie neu.';
});
