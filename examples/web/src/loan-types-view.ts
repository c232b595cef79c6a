/**
 * The signed-in view: a filter box, a page of loan types (Relay pagination: `first`/`after` forward,
 * `last`/`before` back, `totalCount` for "11–20 of 30"), inline editing and a form to create one, through
 * the gateway's typed API (`loanTypes(where:)`, `saveLoanType`, `updateLoanType`).
 */
import type { ApolloClient } from '@apollo/client';
import { form, h, setChildren } from './dom.ts';
import { describeError, type ErrorDescription } from './error-message.ts';
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
  /** The page shown; `size` counts its edges, rows the ones readable. */
  let page: { rows: LoanType[]; size: number; start: string | null; end: string | null } | undefined;

  const status = h('p', { className: 'status', role: 'status' });
  const fail = (error: unknown) => {
    options.onError(describeError(error));
  };

  const table = createLoanTable({
    async save(id, changes) {
      try {
        const result = await client.mutate({
          mutation: UpdateLoanTypeDocument,
          variables: { id, patch: changes },
        });
        const object = result.data?.updateLoanType.object;
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
    // The gateway compiles `contains` into an escaped pattern itself: no regular expression is built here.
    const where = filterText === '' ? null : { loanType: { contains: filterText, caseInsensitive: true } };
    try {
      // errorPolicy 'all': a record the gateway cannot read (BAD_UPSTREAM_VALUE) costs its own row only.
      const result = await client.query({
        query: LoanTypesDocument,
        variables: { ...request, where },
        errorPolicy: 'all',
      });
      if (mine !== generation) return;
      if (result.error) fail(result.error);
      if (!result.data) return;
      const { totalCount, edges, pageInfo } = result.data.loanTypes;
      offset = pendingOffset;
      page = {
        rows: edges.flatMap((e) => (e.node ? [toLoanType(e.node)] : [])),
        size: edges.length,
        start: pageInfo.startCursor,
        end: pageInfo.endCursor,
      };
      table.show(page.rows);
      setChildren(
        range,
        totalCount === 0 ? 'No loan types' : `${offset + 1}–${offset + page.size} of ${totalCount}`,
      );
      previous.disabled = offset === 0 || page.start === null;
      next.disabled = offset + page.size >= totalCount || page.end === null;
    } catch (error) {
      if (mine === generation) fail(error);
    }
  };

  const step = (direction: 'previous' | 'next') => {
    if (page === undefined) return;
    if (direction === 'next' && page.end !== null) {
      request = { first: PAGE_SIZE, after: page.end };
      pendingOffset = offset + page.size;
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
  const filterForm = form(
    { className: 'filter', role: 'search' },
    applyFilter,
    h('label', {}, 'Filter by loan type ', filterInput),
  );

  const fields = createLoanFieldsInputs();
  const create = async () => {
    const data = fields.read();
    if (data === undefined) return;
    try {
      const result = await client.mutate({
        mutation: CreateLoanTypeDocument,
        variables: { input: data },
      });
      const saved = result.data?.saveLoanType;
      if (!saved) throw new Error('no answer to saveLoanType');
      status.textContent = `Created “${data.loanType}” (id ${saved.id}).`;
      fields.reset();
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const createForm = form(
    { className: 'card create', ariaLabel: 'New loan type' },
    () => void create(),
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
