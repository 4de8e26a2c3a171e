import type { Subscription } from '@lakecams/bus';
import { UserChanged } from '@lakecams/contracts/messages';
import type { FastifyInstance } from 'fastify';

/** A user as svc-identity announces them, kept by services that name users (permissions, referer pages). */
export interface KnownUser {
  id: string;
  userName: string;
  email: string;
  emailConfirmed: boolean;
}

/** Where a service keeps its copy of the known users: its own table, written by its repository. */
export interface KnownUserStore {
  /** Insert or update the user (and whatever the service derives from them, e.g. a changed email). */
  upsert(user: KnownUser): Promise<void>;
  isKnown(userId: string): Promise<boolean>;
}

/**
 * Follow svc-identity's users into `store` (a durable consumer named `durable`), and let Admins impersonate
 * only users known there. Users without a name or email yet (a registration in progress) are not kept.
 */
export async function followKnownUsers(
  app: FastifyInstance,
  store: KnownUserStore,
  durable: string,
): Promise<Subscription> {
  app.useUserDirectory((id) => store.isKnown(id));
  return app.bus.consume(
    UserChanged,
    async (message) => {
      const { id, userName, email, emailConfirmed = false } = message.data;
      if (userName && email) await store.upsert({ id, userName, email, emailConfirmed });
      message.ack();
    },
    { durable },
  );
}
