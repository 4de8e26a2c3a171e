import { PageFrame } from '@lakecams/ui-kit';

/** The referer-user table comes in a later issue. */
export function RefererUsersPage() {
  return <PageFrame title="Referer bearbeiten" />;
}
