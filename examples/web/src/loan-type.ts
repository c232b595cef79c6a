/** A loan type as the page shows and edits it. */
import type { LoanTypeFieldsFragment } from './generated/graphql.ts';

/** The fields this page edits. */
export interface LoanTypeFields {
  loanType: string;
  description: string;
  /** Interest rate in percent; `NaN` when the record has none. */
  rate: number;
}

/** A loan type with its id. */
export interface LoanType extends LoanTypeFields {
  id: string;
}

/** From the gateway's typed `LoanType` (its optional fields may be `null`). */
export function toLoanType(node: LoanTypeFieldsFragment): LoanType {
  return {
    id: node.id,
    loanType: node.loanType,
    description: node.description ?? '',
    rate: node.rate ?? Number.NaN,
  };
}

/** `4.25 %`, or an empty cell when the record has no rate. */
export function formatRate(rate: number): string {
  return Number.isFinite(rate) ? `${rate.toFixed(2)} %` : '';
}

/** The fields of `next` that differ from `previous`: the patch `updateLoanType` should send. */
export function changedFields(previous: LoanTypeFields, next: LoanTypeFields): Partial<LoanTypeFields> {
  const changes: Partial<LoanTypeFields> = {};
  if (next.loanType !== previous.loanType) changes.loanType = next.loanType;
  if (next.description !== previous.description) changes.description = next.description;
  if (next.rate !== previous.rate && !(Number.isNaN(next.rate) && Number.isNaN(previous.rate))) {
    changes.rate = next.rate;
  }
  return changes;
}
