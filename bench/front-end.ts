import type { BenchContext } from './context.ts';
import type { ResultRow } from './harness.ts';

export async function frontEnd(_context: BenchContext): Promise<ResultRow[]> {
  return [];
}
