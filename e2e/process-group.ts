/** Whether any process of the group still runs (a command started `detached`, as a terminal's foreground job). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
