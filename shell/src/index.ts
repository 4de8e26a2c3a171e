import { firstViewLoaded } from './first-view.ts';
import { registerRemotesOnce } from './remote-manifests.ts';

// A camera page's picture is in the HTML (first-view.ts): it loads before the scripts compete with it.
await firstViewLoaded();

// Before the async boundary: the open page's remote loads while React DOM does, not after it.
void registerRemotesOnce();

// Async boundary: shared singletons must be negotiated before any of them is used
// (docs/architecture.md, "Module Federation: what to keep in mind").
import('./bootstrap.ts').catch((error: unknown) => {
  console.error('The shell could not start', error);
  const main = document.getElementById('main');
  if (main) main.textContent = 'Die Seite konnte nicht geladen werden. Bitte laden Sie sie neu.';
});
