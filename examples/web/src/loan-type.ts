/** A loan type as the page shows it, read from the upstream record (`DataObject.data`, untyped JSON). */

/** The fields this page edits. */
export interface LoanTypeFields {
  loanType: string;
  description: string;
  /** Interest rate in percent. */
  rate: number;
}

/** A loan type with its id. */
export interface LoanType extends LoanTypeFields {
  id: string;
}

/** Reads the record; a missing or mistyped field shows as empty rather than breaking the table. */
export function toLoanType(node: { id: string; data: Record<string, unknown> }): LoanType {
  const { loanType, description, rate } = node.data;
  return {
    id: node.id,
    loanType: typeof loanType === 'string' ? loanType : '',
    description: typeof description === 'string' ? description : '',
    rate: typeof rate === 'number' ? rate : Number.NaN,
  };
}

/** `4.25 %`, or an empty cell when the record has no rate. */
export function formatRate(rate: number): string {
  return Number.isFinite(rate) ? `${rate.toFixed(2)} %` : '';
}

/** The fields of `next` that differ from `previous`: what `updateObject` should send. */
export function changedFields(previous: LoanTypeFields, next: LoanTypeFields): Partial<LoanTypeFields> {
  const changes: Partial<LoanTypeFields> = {};
  if (next.loanType !== previous.loanType) changes.loanType = next.loanType;
  if (next.description !== previous.description) changes.description = next.description;
  if (next.rate !== previous.rate) changes.rate = next.rate;
  return changes;
}
