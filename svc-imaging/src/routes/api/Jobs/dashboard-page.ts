/**
 * The job dashboard as one self-contained page (served by svc-imaging, embedded by mf-admin in a
 * frame). It reads `/api/Jobs/state` every few seconds; its buttons send the anti-forgery header.
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="de-CH">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Jobs – Aufnahmen</title>
<style>
  :root { --blue: #0b5c8c; --ink: #1b2a35; --muted: #5a6b78; --line: #d8e1e8; --bad: #a32020; --ok: #1e7b34; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: #f4f7f9; }
  main { padding: 1rem clamp(0.75rem, 3vw, 1.5rem); }
  h1 { margin: 0 0 0.25rem; font-size: 1.4rem; color: var(--blue); }
  h2 { margin: 1.5rem 0 0.5rem; font-size: 1.1rem; }
  .meta { color: var(--muted); margin: 0 0 1rem; }
  .table-wrap { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 0.5rem; }
  table { border-collapse: collapse; width: 100%; min-width: 46rem; }
  th, td { padding: 0.5rem 0.75rem; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
  tr:last-child td { border-bottom: 0; }
  .status { font-weight: 600; }
  .status-done { color: var(--ok); } .status-failed, .status-offline { color: var(--bad); } .status-paused { color: var(--muted); }
  .error { color: var(--bad); font-size: 0.9rem; max-width: 28rem; overflow-wrap: anywhere; }
  button { font: inherit; padding: 0.3rem 0.7rem; border-radius: 0.4rem; border: 1px solid var(--blue); background: #fff; color: var(--blue); cursor: pointer; margin-right: 0.3rem; }
  button:hover { background: #e6f1f8; }
  .notice { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-radius: 0.4rem; background: #fdecea; color: var(--bad); display: none; }
  /* Phones: every row a card, each value under its column's name (data-label), actions full width. */
  @media (max-width: 40rem) {
    table { min-width: 0; } thead { display: none; }
    tr { display: block; padding: 0.4rem 0; border-bottom: 1px solid var(--line); } tr:last-child { border-bottom: 0; }
    td { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.2rem 0.5rem; padding: 0.2rem 0.75rem; border: 0; }
    td[data-label]::before { content: attr(data-label); flex: 0 0 7rem; color: var(--muted); font-size: 0.85rem; font-weight: 600; }
    td[colspan] { display: block; }
    td button { min-height: 2.5rem; margin: 0 0 0.3rem; }
  }
</style>
</head>
<body>
<main>
  <h1>Aufnahme-Jobs</h1>
  <p class="meta" id="meta">Wird geladen …</p>
  <p class="notice" id="notice" role="alert"></p>
  <div class="table-wrap"><table aria-label="Kameras">
    <thead><tr><th>Kamera</th><th>Intervall</th><th>Letzter Lauf</th><th>Dauer</th><th>Status</th><th>Nächster Lauf</th><th>Aktionen</th></tr></thead>
    <tbody id="cameras"></tbody>
  </table></div>
  <h2>Letzte Fehler</h2>
  <div class="table-wrap"><table aria-label="Letzte Fehler">
    <thead><tr><th>Zeit</th><th>Kamera</th><th>Versuch</th><th>Fehler</th></tr></thead>
    <tbody id="failures"></tbody>
  </table></div>
  <h2>Zeitraffer</h2>
  <div class="table-wrap"><table aria-label="Zeitraffer">
    <thead><tr><th>Kamera</th><th>Tag</th><th>Stufe</th><th>Status</th><th>Fortschritt</th><th>Dauer</th><th>Grösse</th></tr></thead>
    <tbody id="timelapses"></tbody>
  </table></div>
  <h2>Aufräumen</h2>
  <div class="table-wrap"><table aria-label="Aufräumläufe">
    <thead><tr><th>Tag</th><th>Status</th><th>Dauer</th><th>Ergebnis</th></tr></thead>
    <tbody id="prunes"></tbody>
  </table></div>
</main>
<script>
  const time = (iso) => (iso ? new Date(iso).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'medium' }) : '–');
  const text = (value) => String(value ?? '–').replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
  const xsrf = () => decodeURIComponent((document.cookie.match(/(?:^|; )(?:__Host-)?XSRF-TOKEN=([^;]*)/) || [])[1] || '');
  const notice = document.getElementById('notice');
  // The API answers in English; the page says it in German.
  const GERMAN = {
    'This camera was captured this minute already': 'Diese Kamera wurde in dieser Minute schon aufgenommen.',
    'A capture of this minute is running, please retry shortly': 'Eine Aufnahme dieser Minute läuft gerade, bitte gleich noch einmal versuchen.',
  };
  function show(message) { notice.textContent = message; notice.style.display = message ? 'block' : 'none'; }
  async function act(action, webcamId) {
    const response = await fetch('/api/Jobs/' + action + '?webcamId=' + webcamId, { method: 'POST', headers: { 'X-XSRF-TOKEN': xsrf() }, credentials: 'same-origin' });
    if (!response.ok) show(GERMAN[(await response.json().catch(() => ({}))).message] || 'Aktion fehlgeschlagen.');
    else show('');
    await refresh();
  }
  function row(camera) {
    const last = camera.lastRun;
    const status = camera.paused ? 'paused' : camera.offline ? 'offline' : last ? last.status : 'waiting';
    const label = { paused: 'Pausiert', offline: camera.offline === 'frozen' ? 'Offline (Bild eingefroren)' : 'Offline (keine Lieferung)', waiting: 'Wartet', running: 'Läuft', done: 'OK', failed: 'Fehler' }[status];
    return '<tr data-camera="' + camera.webcamId + '"><td>' + text(camera.name) + '</td><td>' + camera.intervalMin + ' min</td>' +
      '<td>' + time(last && last.startedAt) + '</td><td>' + (last && last.durationMs != null ? last.durationMs + ' ms' : '–') + '</td>' +
      '<td><span class="status status-' + status + '">' + label + '</span>' + (last && last.error ? '<div class="error">' + text(last.error) + '</div>' : '') + '</td>' +
      '<td>' + (camera.paused ? '–' : time(camera.nextRun)) + '</td>' +
      '<td><button data-action="retry">Jetzt aufnehmen</button><button data-action="' + (camera.paused ? 'resume' : 'pause') + '">' + (camera.paused ? 'Fortsetzen' : 'Pausieren') + '</button></td></tr>';
  }
  async function refresh() {
    const response = await fetch('/api/Jobs/state', { credentials: 'same-origin' });
    if (!response.ok) { show(response.status === 401 || response.status === 403 ? 'Nur für Administratoren.' : 'Status nicht verfügbar.'); return; }
    const state = await response.json();
    document.getElementById('meta').textContent = state.cameras.length + ' Kameras · Stand ' + time(state.generatedAt);
    document.getElementById('cameras').innerHTML = state.cameras.map(row).join('');
    document.getElementById('failures').innerHTML = state.failures.map((f) =>
      '<tr><td>' + time(f.startedAt) + '</td><td>' + text(f.camera) + '</td><td>' + f.attempt + '</td><td class="error">' + text(f.error) + '</td></tr>').join('') ||
      '<tr><td colspan="4">Keine Fehler.</td></tr>';
    document.getElementById('prunes').innerHTML = state.prunes.map((p) =>
      '<tr><td>' + text(p.tick) + '</td><td>' + text(p.status) + '</td><td>' + (p.durationMs != null ? p.durationMs + ' ms' : '–') + '</td><td>' + text(p.detail ? JSON.stringify(p.detail) : p.error) + '</td></tr>').join('') ||
      '<tr><td colspan="4">Noch kein Lauf.</td></tr>';
  }
  async function refreshTimelapses() {
    const response = await fetch('/api/Jobs/timelapses', { credentials: 'same-origin' });
    if (!response.ok) return;
    const label = { running: 'Läuft', done: 'OK', failed: 'Fehler' };
    document.getElementById('timelapses').innerHTML = (await response.json()).map((t) =>
      '<tr><td>' + text(t.camera) + '</td><td>' + text(t.day.slice(6, 8) + '.' + t.day.slice(4, 6) + '.' + t.day.slice(0, 4)) + '</td><td>' + text(t.level) + '</td>' +
      '<td><span class="status status-' + text(t.status) + '">' + text(label[t.status] || t.status) + '</span>' + (t.error ? '<div class="error">' + text(t.error) + '</div>' : '') + '</td>' +
      '<td><progress max="100" value="' + t.progress + '"></progress> ' + t.progress + ' % von ' + t.frames + ' Bildern</td>' +
      '<td>' + (t.durationMs != null ? (t.durationMs / 1000).toFixed(1) + ' s' : '–') + '</td><td>' + (t.bytes == null ? '–' : t.bytes < 1e6 ? Math.ceil(t.bytes / 1e3) + ' kB' : (t.bytes / 1e6).toFixed(2) + ' MB') + '</td></tr>').join('') ||
      '<tr><td colspan="7">Noch kein Zeitraffer.</td></tr>';
  }
  document.getElementById('cameras').addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (button) act(button.dataset.action, button.closest('tr').dataset.camera);
  });
  // Each cell carries its column's name, which the phone layout shows beside the value.
  new MutationObserver(() => {
    for (const table of document.querySelectorAll('table')) {
      const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
      for (const tr of table.querySelectorAll('tbody tr')) [...tr.children].forEach((td, i) => td.dataset.label ??= names[i]);
    }
  }).observe(document.querySelector('main'), { childList: true, subtree: true });
  refresh();
  refreshTimelapses();
  setInterval(() => { refresh(); refreshTimelapses(); }, 5000);
</script>
</body>
</html>`;
