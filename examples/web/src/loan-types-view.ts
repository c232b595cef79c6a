/**
 * The signed-in view: a filter box, a page of loan types (Relay pagination: `first`/`after` forward,
 * `last`/`before` back, `totalCount` for "11–20 of 30"), inline editing and a form to create one.
 */
import type { ApolloClient } from '@apollo/client';
import { h, setChildren } from './dom.ts';
import { describeError, type ErrorDescription } from './error-message.ts';
import { containsIgnoringCase } from './filter-pattern.ts';
import { createLoanFieldsInputs } from './loan-fields-inputs.ts';
import { createLoanTable } from './loan-table.ts';
import { toLoanType, type LoanType } from './loan-type.ts';
import { CreateLoanTypeDocument, LoanTypesDocument, UpdateLoanTypeDocument } from './operations.ts';

/** Rows per page. */
export const PAGE_SIZE = 10;

/** Options of {@link createLoanTypesView}. */
export interface LoanTypesViewOptions {
  client: ApolloClient;
  onError(error: ErrorDescription): void;
}

type PageRequest = { first: number; after?: string } | { last: number; before: string };

/** Builds the view and loads the first page. */
export function createLoanTypesView(options: LoanTypesViewOptions): HTMLElement {
  const { client } = options;
  let filterText = '';
  let request: PageRequest = { first: PAGE_SIZE };
  /** Index of the first row shown, kept from the steps taken: cursors are opaque. */
  let offset = 0;
  let pendingOffset = 0;
  let generation = 0;
  let page: { rows: LoanType[]; total: number; start: string | null; end: string | null } | undefined;

  const status = h('p', { className: 'status', role: 'status' });
  const fail = (error: unknown) => {
    options.onError(describeError(error));
  };

  const table = createLoanTable({
    async save(id, changes) {
      try {
        const result = await client.mutate({
          mutation: UpdateLoanTypeDocument,
          variables: { id, data: changes },
        });
        const object = result.data?.updateObject.object;
        if (!object) throw new Error('the gateway did not read the object back');
        const saved = toLoanType(object);
        status.textContent = `Saved “${saved.loanType}”.`;
        return saved;
      } catch (error) {
        fail(error);
        return undefined;
      }
    },
  });

  const range = h('span', { className: 'range' });
  const previous = h('button', { type: 'button', on: { click: () => void step('previous') } }, '← Previous');
  const next = h('button', { type: 'button', on: { click: () => void step('next') } }, 'Next →');

  const load = async () => {
    const mine = ++generation;
    const filter =
      filterText === ''
        ? null
        : { criteria: [{ fieldName: 'loanType', value: containsIgnoringCase(filterText) }] };
    try {
      const result = await client.query({ query: LoanTypesDocument, variables: { ...request, filter } });
      if (mine !== generation || result.data === undefined) return;
      const { totalCount, edges, pageInfo } = result.data.objects;
      offset = pendingOffset;
      page = {
        rows: edges.map((e) => toLoanType(e.node)),
        total: totalCount,
        start: pageInfo.startCursor,
        end: pageInfo.endCursor,
      };
      table.show(page.rows);
      setChildren(
        range,
        totalCount === 0 ? 'No loan types' : `${offset + 1}–${offset + page.rows.length} of ${totalCount}`,
      );
      previous.disabled = offset === 0 || page.start === null;
      next.disabled = offset + page.rows.length >= totalCount || page.end === null;
    } catch (error) {
      if (mine === generation) fail(error);
    }
  };

  const step = (direction: 'previous' | 'next') => {
    if (page === undefined) return;
    if (direction === 'next' && page.end !== null) {
      request = { first: PAGE_SIZE, after: page.end };
      pendingOffset = offset + page.rows.length;
    } else if (direction === 'previous' && page.start !== null) {
      request = { last: PAGE_SIZE, before: page.start };
      pendingOffset = Math.max(0, offset - PAGE_SIZE);
    }
    return load();
  };

  const restart = () => {
    request = { first: PAGE_SIZE };
    pendingOffset = 0;
    return load();
  };

  const filterInput = h('input', {
    type: 'search',
    name: 'filter',
    placeholder: 'e.g. fixed',
    ariaLabel: 'Filter loan types',
  });
  let debounce: ReturnType<typeof setTimeout> | undefined;
  const applyFilter = () => {
    clearTimeout(debounce);
    if (filterInput.value.trim() === filterText) return;
    filterText = filterInput.value.trim();
    void restart();
  };
  filterInput.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(applyFilter, 300);
  });
  const filterForm = h(
    'form',
    {
      className: 'filter',
      role: 'search',
      on: {
        submit: (event: SubmitEvent) => {
          event.preventDefault();
          applyFilter();
        },
      },
    },
    h('label', {}, 'Filter by loan type ', filterInput),
  );

  const fields = createLoanFieldsInputs();
  const create = async () => {
    const data = fields.read();
    if (data === undefined) return;
    try {
      const result = await client.mutate({
        mutation: CreateLoanTypeDocument,
        variables: { data: { ...data } },
      });
      const saved = result.data?.saveObject;
      if (!saved) throw new Error('no answer to saveObject');
      status.textContent = `Created “${data.loanType}” (id ${saved.id}).`;
      fields.reset();
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const createForm = h(
    'form',
    {
      className: 'card create',
      ariaLabel: 'New loan type',
      on: {
        submit: (event: SubmitEvent) => {
          event.preventDefault();
          void create();
        },
      },
    },
    h('h2', {}, 'New loan type'),
    h('label', {}, 'Loan type', fields.loanType),
    h('label', {}, 'Description', fields.description),
    h('label', {}, 'Rate (%)', fields.rate),
    h('button', { type: 'submit', className: 'primary' }, 'Create'),
  );

  void load();
  return h(
    'section',
    { className: 'loan-types' },
    filterForm,
    table.element,
    h('nav', { className: 'pager', ariaLabel: 'Pages' }, previous, range, next),
    status,
    createForm,
  );
}
