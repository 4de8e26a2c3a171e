/**
 * Access tokens revoked before they expire (log-off): token ids (`jti`) and session ids (`sid`, every token
 * of one login), each kept until the last token it can match has expired, then forgotten.
 */
export function createRevokedAccess(now: () => number = Date.now) {
  const until = new Map<string, number>();

  function forgetExpired(): void {
    const time = now();
    for (const [id, expiresAt] of until) if (expiresAt <= time) until.delete(id);
  }

  return {
    revoke(ids: readonly string[], expiresAt: number): void {
      forgetExpired();
      if (!(expiresAt > now())) return;
      for (const id of ids) until.set(id, Math.max(until.get(id) ?? 0, expiresAt));
    },
    isRevoked(ids: readonly (string | undefined)[]): boolean {
      const time = now();
      return ids.some((id) => id !== undefined && (until.get(id) ?? 0) > time);
    },
    /** Ids still remembered (tests). */
    get size(): number {
      forgetExpired();
      return until.size;
    },
  };
}

export type RevokedAccess = ReturnType<typeof createRevokedAccess>;
