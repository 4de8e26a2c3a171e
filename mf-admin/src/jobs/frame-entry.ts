// The page's styles come with the chunk imported here: the runtime links a chunk's CSS, not an entry's.
import('./frame.tsx').then(
  ({ mountInFrame }) => mountInFrame(),
  (error: unknown) => {
    console.error('The job dashboard could not be loaded', error);
    document.body.textContent = 'Die Übersicht konnte nicht geladen werden. Bitte laden Sie die Seite neu.';
  },
);
