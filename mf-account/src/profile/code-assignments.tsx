import type { CodeAssignment } from '@lakecams/contracts';

const DATE = new Intl.DateTimeFormat('de-CH', { dateStyle: 'medium' });

function assignedOn(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

export type AssignmentsState =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; list: CodeAssignment[] };

/** The codes the acting user redeemed, each with a remove button. */
export function CodeAssignments({
  assignments,
  onRemove,
}: {
  assignments: AssignmentsState;
  onRemove(assignment: CodeAssignment): void;
}) {
  if (assignments.status === 'loading') return <p className="muted">Eingelöste Codes werden geladen …</p>;
  if (assignments.status === 'failed')
    return <p className="muted">Die eingelösten Codes konnten nicht geladen werden.</p>;
  if (assignments.list.length === 0) return <p className="muted">Sie haben noch keinen Code eingelöst.</p>;
  return (
    <section className="code-assignments" aria-label="Eingelöste Codes">
      <h3>Eingelöste Codes</h3>
      <ul>
        {assignments.list.map((assignment) => (
          <li key={assignment.id}>
            <div>
              <strong>{assignment.feature}</strong>
              <span className="code-assignments__code">{assignment.code}</span>
              {assignedOn(assignment.assignedAt) && (
                <span className="muted">eingelöst am {assignedOn(assignment.assignedAt)}</span>
              )}
            </div>
            <button
              type="button"
              className="button--secondary"
              aria-label={`Code ${assignment.code} (${assignment.feature}) entfernen`}
              onClick={() => onRemove(assignment)}
            >
              Entfernen
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
