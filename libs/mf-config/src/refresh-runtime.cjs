// What `react-refresh/runtime` is in a dev build: one React Refresh runtime per page, that of the first dev build
// to load. Only a runtime injected before React DOM starts can refresh its roots, and each app would bring its own.
const runtime = require('react-refresh/runtime');

globalThis.__lakecams_react_refresh_runtime__ ??= runtime;
module.exports = globalThis.__lakecams_react_refresh_runtime__;
