/**
 * The table of loan types with inline editing: "Edit" turns a row's cells into inputs, "Save" sends only
 * the changed fields with `updateObject` and shows the object as the gateway read it back.
 */
import { h, setChildren } from './dom.ts';
import { createLoanFieldsInputs } from './loan-fields-inputs.ts';
import { changedFields, formatRate, type LoanType, type LoanTypeFields } from './loan-type.ts';

/** Options of {@link createLoanTable}. */
export interface LoanTableOptions {
  /** Saves the changes; answers the object as stored, or `undefined` when saving failed (already reported). */
  save(id: string, changes: Partial<LoanTypeFields>): Promise<LoanType | undefined>;
}

/** The table and a way to show a page of rows. */
export interface LoanTable {
  element: HTMLTableElement;
  show(rows: readonly LoanType[]): void;
}

/** Creates an empty table. */
export function createLoanTable(options: LoanTableOptions): LoanTable {
  const body = h('tbody');
  const element = h(
    'table',
    { className: 'loans' },
    h('caption', {}, 'Loan types'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Loan type'),
        h('th', { scope: 'col' }, 'Description'),
        h('th', { scope: 'col', className: 'num' }, 'Rate'),
        h('th', { scope: 'col' }, h('span', { className: 'visually-hidden' }, 'Actions')),
      ),
    ),
    body,
  );

  const viewRow = (row: HTMLTableRowElement, loan: LoanType) => {
    row.dataset.id = loan.id;
    row.classList.remove('editing');
    setChildren(
      row,
      h('td', {}, loan.loanType),
      h('td', {}, loan.description),
      h('td', { className: 'num' }, formatRate(loan.rate)),
      h(
        'td',
        { className: 'actions' },
        h(
          'button',
          {
            type: 'button',
            ariaLabel: `Edit ${loan.loanType}`,
            on: {
              click: () => {
                editRow(row, loan);
              },
            },
          },
          'Edit',
        ),
      ),
    );
  };

  const editRow = (row: HTMLTableRowElement, loan: LoanType) => {
    const inputs = createLoanFieldsInputs(loan);
    const saveButton = h('button', { type: 'button', className: 'primary' }, 'Save');
    const cancel = h(
      'button',
      {
        type: 'button',
        on: {
          click: () => {
            viewRow(row, loan);
          },
        },
      },
      'Cancel',
    );
    const save = async () => {
      const next = inputs.read();
      if (next === undefined) return;
      const changes = changedFields(loan, next);
      if (Object.keys(changes).length === 0) {
        viewRow(row, loan);
        return;
      }
      saveButton.disabled = true;
      const saved = await options.save(loan.id, changes);
      saveButton.disabled = false;
      if (saved !== undefined) viewRow(row, saved);
    };
    saveButton.addEventListener('click', () => void save());
    for (const input of [inputs.loanType, inputs.description, inputs.rate]) {
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') void save();
        if (event.key === 'Escape') viewRow(row, loan);
      });
    }
    row.classList.add('editing');
    setChildren(
      row,
      h('td', {}, inputs.loanType),
      h('td', {}, inputs.description),
      h('td', { className: 'num' }, inputs.rate),
      h('td', { className: 'actions' }, saveButton, cancel),
    );
    inputs.loanType.focus();
  };

  return {
    element,
    show(rows) {
      if (rows.length === 0) {
        setChildren(body, h('tr', {}, h('td', { colSpan: 4, className: 'empty' }, 'No loan types match.')));
        return;
      }
      setChildren(
        body,
        ...rows.map((loan) => {
          const row = h('tr');
          viewRow(row, loan);
          return row;
        }),
      );
    },
  };
}
