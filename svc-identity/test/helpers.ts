import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

// What other packages' tests still take from here; `@lakecams/svc-identity/testing` is where it lives.
export { solveCaptcha } from '../src/testing.ts';

/** A boolean route's success: exactly the text `true`, sent as text. */
export function expectTrueText(response: { status: number; text: string; headers: Headers }): void {
  expect(response.status, response.text).toBe(200);
  expect(response.text).toBe('true');
  expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/);
}

/**
 * Run one of svc-identity's entry points (`src/server.ts`, `scripts/create-codes.ts`) as its own process with this
 * Node, given only `env` and PATH; it is killed after `timeoutMs`.
 */
export function runEntryPoint(
  relativePath: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = fileURLToPath(new URL(`../${relativePath}`, import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
