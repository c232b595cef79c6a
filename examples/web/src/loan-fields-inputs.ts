/** The three inputs of a loan type, shared by the create form and the inline edit. */
import { h } from './dom.ts';
import type { LoanTypeFields } from './loan-type.ts';

/** The inputs and a reader that validates them. */
export interface LoanFieldsInputs {
  loanType: HTMLInputElement;
  description: HTMLInputElement;
  rate: HTMLInputElement;
  /** The values, or `undefined` after showing the browser's own message on the first invalid input. */
  read(): LoanTypeFields | undefined;
  reset(values?: LoanTypeFields): void;
}

/** Creates the inputs, filled with `values` when given. */
export function createLoanFieldsInputs(values?: LoanTypeFields): LoanFieldsInputs {
  const loanType = h('input', { name: 'loanType', required: true, maxLength: 80, ariaLabel: 'Loan type' });
  const description = h('input', { name: 'description', maxLength: 200, ariaLabel: 'Description' });
  const rate = h('input', {
    name: 'rate',
    type: 'number',
    required: true,
    min: '0',
    max: '100',
    step: '0.01',
    ariaLabel: 'Rate (%)',
  });
  const inputs = [loanType, description, rate];
  const reset = (v?: LoanTypeFields) => {
    loanType.value = v?.loanType ?? '';
    description.value = v?.description ?? '';
    rate.value = v && Number.isFinite(v.rate) ? String(v.rate) : '';
  };
  reset(values);
  return {
    loanType,
    description,
    rate,
    read() {
      const invalid = inputs.find((input) => !input.checkValidity());
      if (invalid !== undefined) {
        invalid.reportValidity();
        return undefined;
      }
      return {
        loanType: loanType.value.trim(),
        description: description.value.trim(),
        rate: rate.valueAsNumber,
      };
    },
    reset,
  };
}
