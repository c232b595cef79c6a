/**
 * A front-end's journey through the gateway in front of the independent upstream, each answer compared with
 * the upstream's own store (its `/__debug/store`, the primary's truth): logins, reads by id, pages, every
 * filter operator, typed filters and fields, metadata, saves and updates, another tenant's records, an
 * expired session. Every step ends in one outcome, counted:
 *
 * - `right`: the answer is the store's truth for the question asked;
 * - `named`: a GraphQL error with a stable `extensions.code`, and nothing written behind it (or the error
 *   says `extensions.applied`, and what was written is what was sent);
 * - `wrong`: data that differs from the store's truth, answered as a success;
 * - `writeBehindError`: a record changed behind an error that does not say so;
 * - `corrupted`: a record changed otherwise than the write that answered success asked;
 * - `otherTenant`: another organization's record served, or changed.
 */

/** How one step ended. */
export type Outcome = 'right' | 'named' | 'wrong' | 'writeBehindError' | 'corrupted' | 'otherTenant';

/** One step's verdict, with what was seen when it was not `right`. */
export interface StepResult {
  step: string;
  outcome: Outcome;
  detail?: string;
}

/** What the journey found. */
export interface JourneyReport {
  counts: Record<Outcome, number>;
  steps: StepResult[];
}

/** One GraphQL answer, parsed with integers past 2^53 kept as bigint. */
interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** Posts one operation to the gateway; `rawVariables` is the variables' JSON text, sent as written. */
export type PostGraphql = (query: string, rawVariables: string, token?: string) => Promise<string>;

interface TruthDoc {
  _id: string;
  objectName: string;
  applicationCode: string;
  organizationCode: string;
  version: number;
  fields: Record<string, unknown>;
}

const ORG = 'acme';
const OTHER_ORG = 'globex';
const LOAN = 'com.acme.crm.LoanType';
const ORDER = 'com.acme.crm.Order';
const CUSTOMER = 'com.acme.crm.Customer';
const APPOINTMENT = 'com.acme.crm.Appointment';
const SCRATCH = 'com.acme.crm.Scratch';

/** JSON.parse that keeps an integer a double would change as a bigint (Node 24's reviver source text). */
function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    context?.source !== undefined &&
    /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a served value means the store's tagged value (ids as text, instants as instants, longs exact). */
export function sameMeaning(served: unknown, truth: unknown): boolean {
  if (isRecord(truth)) {
    if ('$oid' in truth) return served === truth.$oid || (isRecord(served) && served.$oid === truth.$oid);
    if ('$date' in truth) {
      const instant = Date.parse(String(truth.$date));
      if (typeof served === 'number') return served === instant;
      if (isRecord(served) && '$date' in served) return sameMeaning(served.$date, truth);
      // A text without a zone names no instant; in generic `data` it is the upstream's own spelling, passed
      // through as the record holds it (the typed API refuses it as BAD_UPSTREAM_VALUE).
      if (typeof served === 'string' && /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/.test(served))
        return true;
      return (
        typeof served === 'string' && /(?:Z|[+-]\d\d:?\d\d)$/.test(served) && Date.parse(served) === instant
      );
    }
    if ('$numberLong' in truth) return String(served) === truth.$numberLong && typeof served !== 'number';
    if ('$double' in truth) return typeof served === 'number' && served === truth.$double;
    if (!isRecord(served)) return false;
    const keys = Object.keys(truth);
    return (
      keys.every((key) => sameMeaning(served[key], truth[key])) &&
      Object.keys(served).every((key) => key in truth)
    );
  }
  if (Array.isArray(truth))
    return (
      Array.isArray(served) &&
      served.length === truth.length &&
      truth.every((item, index) => sameMeaning(served[index], item))
    );
  if (typeof truth === 'number')
    return served === truth || (typeof served === 'string' && served === String(truth));
  return served === truth;
}

/** Whether what was sent is what the store holds, by meaning (a number sent is held as that number). */
function storedAsSent(stored: unknown, sent: unknown): boolean {
  if (typeof sent === 'bigint') return isRecord(stored) && stored.$numberLong === String(sent);
  if (typeof sent === 'number')
    return stored === sent || (isRecord(stored) && '$double' in stored && stored.$double === sent);
  if (Array.isArray(sent))
    return (
      Array.isArray(stored) &&
      stored.length === sent.length &&
      sent.every((item, index) => storedAsSent(stored[index], item))
    );
  if (isRecord(sent))
    return (
      isRecord(stored) &&
      Object.keys(sent).every((key) => storedAsSent(stored[key], sent[key])) &&
      Object.keys(stored).every((key) => key in sent)
    );
  return stored === sent;
}

const TOP_LEVEL_EXTRAS = new Set(['_id', '_class', 'applicationCode', 'organizationCode']);

/** Whether a record's `data` is the store's document (extra keys only the envelope's). */
function sameRecord(data: unknown, doc: TruthDoc): boolean {
  if (!isRecord(data)) return false;
  const extras = Object.keys(data).filter((key) => !(key in doc.fields));
  return (
    extras.every((key) => TOP_LEVEL_EXTRAS.has(key)) &&
    Object.entries(doc.fields).every(([key, value]) => sameMeaning(data[key], value))
  );
}

/** Runs the journey against a gateway (`post`) and the upstream at `upstreamUrl`. */
export async function runIndependentJourney(post: PostGraphql, upstreamUrl: string): Promise<JourneyReport> {
  const steps: StepResult[] = [];
  const record = (step: string, outcome: Outcome, detail?: string) => {
    steps.push(detail === undefined ? { step, outcome } : { step, outcome, detail: detail.slice(0, 600) });
  };
  const store = async (): Promise<TruthDoc[]> => {
    const response = await fetch(`${upstreamUrl}/__debug/store`);
    return (parseExact(await response.text()) as { docs: TruthDoc[] }).docs;
  };
  const call = async (query: string, variables: string, token?: string): Promise<Answer> =>
    parseExact(await post(query, variables, token)) as Answer;
  const namedError = (answer: Answer): string | undefined => {
    const codes = (answer.errors ?? []).map((error) => error.extensions?.code);
    if (codes.length === 0) return undefined;
    return codes.every((code) => typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR')
      ? codes.join(',')
      : undefined;
  };
  /** An answer with errors: `named` when each has a stable code, else `wrong` (an unnamed failure). */
  const errorOutcome = (step: string, answer: Answer): boolean => {
    if (!answer.errors?.length) return false;
    const named = namedError(answer);
    if (named === undefined) record(step, 'wrong', `unnamed error: ${JSON.stringify(answer.errors)}`);
    else record(step, 'named', `${named}: ${answer.errors[0]?.message ?? ''}`);
    return true;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

  // ------------------------------------------------------------------------------------------ logins
  const login = async (step: string, args: string): Promise<string | undefined> => {
    const answer = await call(`mutation { login(${args}) { token } }`, '{}');
    const token = (answer.data?.login as { token?: string } | undefined)?.token;
    if (token) record(step, 'right');
    else if (!errorOutcome(step, answer)) record(step, 'wrong', JSON.stringify(answer));
    return token;
  };
  const alice = await login('login JSON', 'username: "alice", password: "alice-pw", method: JSON');
  await login('login FORM by mobile', 'username: "9000000001", password: "alice-pw", method: FORM');
  const bob = await login(
    'login JSON, other organization',
    'username: "bob", password: "bob-pw", method: JSON, organizationCode: "globex"',
  );
  const badLogin = await call('mutation { login(username: "alice", password: "nope") { token } }', '{}');
  if (!errorOutcome('login, bad password', badLogin)) record('login, bad password', 'wrong', 'a token');
  if (alice === undefined) return { counts: tally(steps), steps };

  const truth0 = await store();
  const ours = (objectName: string) =>
    truth0.filter((doc) => doc.objectName === objectName && doc.organizationCode === ORG);
  const theirs = truth0.filter((doc) => doc.organizationCode !== ORG && doc.applicationCode === 'crm');

  /** Holds a list of served records to the store: `expected` ids exactly, each record the store's. */
  const checkList = async (
    step: string,
    answer: Answer,
    pick: (data: Record<string, unknown>) => { totalCount?: unknown; nodes?: unknown } | undefined,
    expected: TruthDoc[],
  ) => {
    if (errorOutcome(step, answer)) return;
    const connection = answer.data ? pick(answer.data) : undefined;
    const nodes = (connection?.nodes ?? []) as { id: string; data?: unknown }[];
    const truth = await store();
    const byId = new Map(truth.map((doc) => [doc._id, doc]));
    const foreign = nodes.filter((node) => byId.get(node.id)?.organizationCode !== ORG);
    if (foreign.length > 0) {
      record(step, 'otherTenant', foreign.map((node) => node.id).join(','));
      return;
    }
    const want = new Set(expected.map((doc) => doc._id));
    const got = nodes.map((node) => node.id);
    const problems: string[] = [];
    if (got.length !== want.size || !got.every((id) => want.has(id)))
      problems.push(`ids ${JSON.stringify(got)} for ${JSON.stringify([...want])}`);
    if (connection?.totalCount !== undefined && connection.totalCount !== want.size)
      problems.push(`totalCount ${JSON.stringify(connection.totalCount)} for ${String(want.size)}`);
    for (const node of nodes) {
      const doc = byId.get(node.id);
      if (node.data !== undefined && doc && !sameRecord(node.data, doc))
        problems.push(
          `${node.id}: ${JSON.stringify(node.data, bigintText)} for ${JSON.stringify(doc.fields)}`,
        );
    }
    record(step, problems.length ? 'wrong' : 'right', problems.join('; ') || undefined);
  };

  const objects = async (
    step: string,
    objectName: string,
    filter: unknown,
    expected: TruthDoc[],
    first = 50,
  ) => {
    const answer = await call(
      `query($f: FilterInput) { objects(objectName: "${objectName}", filter: $f, first: ${String(first)}) { totalCount nodes { id data } } }`,
      JSON.stringify({ f: filter }),
      alice,
    );
    await checkList(step, answer, (data) => data.objects as never, expected);
  };

  // ------------------------------------------------------------------------------------------ reads by id
  for (const objectName of [LOAN, ORDER, CUSTOMER, APPOINTMENT]) {
    for (const doc of ours(objectName)) {
      const step = `object(id) ${objectName.split('.').pop() ?? ''} ${doc._id}`;
      const answer = await call(
        `query { object(objectName: "${objectName}", id: "${doc._id}") { id data } }`,
        '{}',
        alice,
      );
      if (errorOutcome(step, answer)) continue;
      const object = answer.data?.object as { id: string; data: unknown } | null | undefined;
      if (object?.id === doc._id && sameRecord(object.data, doc)) record(step, 'right');
      else record(step, 'wrong', JSON.stringify(object, bigintText));
    }
  }
  for (const doc of theirs.slice(0, 2)) {
    const step = `object(id) of organization ${doc.organizationCode}`;
    const answer = await call(
      `query { object(objectName: "${doc.objectName}", id: "${doc._id}") { id data } }`,
      '{}',
      alice,
    );
    if (errorOutcome(step, answer)) continue;
    if (answer.data?.object) record(step, 'otherTenant', JSON.stringify(answer.data.object));
    else record(step, 'right');
  }

  // ------------------------------------------------------------------------------------------ lists, paging
  for (const objectName of [LOAN, ORDER, CUSTOMER, APPOINTMENT])
    await objects(`objects ${objectName.split('.').pop() ?? ''}`, objectName, null, ours(objectName));
  {
    const seen: string[] = [];
    let after: string | null = null;
    const totals = new Set<unknown>();
    let failed = false;
    for (let page = 0; page < 4; page++) {
      const answer = await call(
        `query($after: String) { objects(objectName: "${ORDER}", first: 2, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }`,
        JSON.stringify({ after }),
        alice,
      );
      if (errorOutcome('paging Order by 2', answer)) {
        failed = true;
        break;
      }
      const connection = answer.data?.objects as {
        totalCount: number;
        nodes: { id: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      seen.push(...connection.nodes.map((node) => node.id));
      totals.add(connection.totalCount);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    if (!failed) {
      const want = ours(ORDER).map((doc) => doc._id);
      const ok =
        seen.length === want.length &&
        want.every((id) => seen.includes(id)) &&
        totals.size === 1 &&
        totals.has(want.length);
      record(
        'paging Order by 2',
        ok ? 'right' : 'wrong',
        ok ? undefined : `${JSON.stringify(seen)} totals ${[...totals].join()}`,
      );
    }
  }

  // ------------------------------------------------------------------------------------------ filters
  const loans = ours(LOAN);
  const text = (doc: TruthDoc, path: string): unknown =>
    path.split('.').reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), doc.fields);
  const where = (docs: TruthDoc[], path: string, test: (value: string) => boolean) =>
    docs.filter((doc) => {
      const value = text(doc, path);
      return Array.isArray(value)
        ? value.some((item) => typeof item === 'string' && test(item))
        : typeof value === 'string' && test(value);
    });
  const criterion = (
    fieldName: string,
    operator: string,
    value: string | string[],
    caseInsensitive = false,
  ) =>
    Array.isArray(value)
      ? { fieldName, operator, values: value, caseInsensitive }
      : { fieldName, operator, value, caseInsensitive };
  const filterSteps: [string, string, unknown[], TruthDoc[]][] = [
    [
      'equals',
      LOAN,
      [criterion('loanType', 'equals', 'Home Loan')],
      where(loans, 'loanType', (v) => v === 'Home Loan'),
    ],
    ['equals, other case', LOAN, [criterion('loanType', 'equals', 'home loan')], []],
    [
      'equals, caseInsensitive',
      LOAN,
      [criterion('loanType', 'equals', 'home loan', true)],
      where(loans, 'loanType', (v) => v.toLowerCase() === 'home loan'),
    ],
    [
      'in',
      LOAN,
      [criterion('loanType', 'in', ['Home Loan', 'Gold Loan'])],
      where(loans, 'loanType', (v) => v === 'Home Loan' || v === 'Gold Loan'),
    ],
    [
      'contains',
      LOAN,
      [criterion('description', 'contains', 'loan')],
      where(loans, 'description', (v) => v.includes('loan')),
    ],
    [
      'contains a pipe',
      LOAN,
      [criterion('description', 'contains', 'gold|jewellery')],
      where(loans, 'description', (v) => v.includes('gold|jewellery')),
    ],
    [
      'startsWith',
      LOAN,
      [criterion('loanType', 'startsWith', 'Car')],
      where(loans, 'loanType', (v) => v.startsWith('Car')),
    ],
    [
      'endsWith',
      LOAN,
      [criterion('loanType', 'endsWith', 'Loan')],
      where(loans, 'loanType', (v) => v.endsWith('Loan')),
    ],
    [
      'matches with alternation',
      LOAN,
      [criterion('loanType', 'matches', 'Home Loan|Car Loan')],
      where(loans, 'loanType', (v) => v === 'Home Loan' || v === 'Car Loan'),
    ],
    [
      'matches a prefix',
      LOAN,
      [criterion('loanType', 'matches', 'Ho')],
      where(loans, 'loanType', (v) => v === 'Ho'),
    ],
    [
      'two criteria on one field',
      LOAN,
      [criterion('loanType', 'startsWith', 'Car'), criterion('loanType', 'endsWith', 'Loan')],
      where(loans, 'loanType', (v) => v.startsWith('Car') && v.endsWith('Loan')),
    ],
    [
      'contains non-Latin text',
      CUSTOMER,
      [criterion('name', 'contains', '東京')],
      where(ours(CUSTOMER), 'name', (v) => v.includes('東京')),
    ],
    [
      'contains Latin-1 text',
      CUSTOMER,
      [criterion('name', 'contains', 'Mü')],
      where(ours(CUSTOMER), 'name', (v) => v.includes('Mü')),
    ],
    [
      'startsWith, caseInsensitive',
      CUSTOMER,
      [criterion('name', 'startsWith', 'ravi', true)],
      where(ours(CUSTOMER), 'name', (v) => v.toLowerCase().startsWith('ravi')),
    ],
    [
      'array element equals',
      CUSTOMER,
      [criterion('tags', 'equals', 'gold')],
      where(ours(CUSTOMER), 'tags', (v) => v === 'gold'),
    ],
    [
      'dotted path equals',
      ORDER,
      [criterion('shipping.city', 'equals', 'Pune')],
      where(ours(ORDER), 'shipping.city', (v) => v === 'Pune'),
    ],
    [
      'equals accented text',
      ORDER,
      [criterion('note', 'equals', 'café delivery')],
      where(ours(ORDER), 'note', (v) => v === 'café delivery'),
    ],
    ['_id equals', ORDER, [criterion('_id', 'equals', ours(ORDER)[1]?._id ?? '')], ours(ORDER).slice(1, 2)],
  ];
  for (const [name, objectName, criteria, expected] of filterSteps)
    await objects(`filter ${name}`, objectName, { criteria }, expected);

  // ------------------------------------------------------------------------------------------ typed
  const typedList = async (
    step: string,
    query: string,
    field: string,
    expected: TruthDoc[],
    check: (node: Record<string, unknown>, doc: TruthDoc) => boolean,
  ) => {
    const answer = await call(query, '{}', alice);
    if (errorOutcome(step, answer)) return;
    const connection = answer.data?.[field] as
      { totalCount?: number; nodes: Record<string, unknown>[] } | undefined;
    const nodes = connection?.nodes ?? [];
    const byId = new Map((await store()).map((doc) => [doc._id, doc]));
    const want = new Set(expected.map((doc) => doc._id));
    const problems: string[] = [];
    if (nodes.some((node) => byId.get(String(node.id))?.organizationCode !== ORG)) {
      record(step, 'otherTenant', JSON.stringify(nodes, bigintText));
      return;
    }
    if (nodes.length !== want.size || !nodes.every((node) => want.has(String(node.id))))
      problems.push(`ids ${nodes.map((node) => String(node.id)).join()} for ${[...want].join()}`);
    if (connection?.totalCount !== undefined && connection.totalCount !== want.size)
      problems.push(`totalCount ${String(connection.totalCount)} for ${String(want.size)}`);
    for (const node of nodes) {
      const doc = byId.get(String(node.id));
      if (doc && !check(node, doc))
        problems.push(
          `${String(node.id)}: ${JSON.stringify(node, bigintText)} for ${JSON.stringify(doc.fields)}`,
        );
    }
    record(step, problems.length ? 'wrong' : 'right', problems.join('; ') || undefined);
  };
  const orders = ours(ORDER);
  const ravi = ours(CUSTOMER)[0]?._id ?? '';
  const orderCheck = (node: Record<string, unknown>, doc: TruthDoc) =>
    (node.orderNo === undefined || sameMeaning(node.orderNo, doc.fields.orderNo)) &&
    (node.amount === undefined || sameMeaning(node.amount, doc.fields.amount)) &&
    (node.paid === undefined || node.paid === doc.fields.paid) &&
    (node.placedAt === undefined || sameMeaning(node.placedAt, doc.fields.placedAt)) &&
    (node.city === undefined || node.city === (doc.fields.shipping as Record<string, unknown>).city) &&
    (node.customer === undefined ||
      sameMeaning((node.customer as { id: string } | null)?.id, doc.fields.customer));
  const orderFields = 'id orderNo amount quantity paid placedAt note city customer { id name }';
  await typedList(
    'typed orders',
    `{ orders(first: 50) { totalCount nodes { ${orderFields} } } }`,
    'orders',
    orders,
    orderCheck,
  );
  await typedList(
    'typed loanTypes',
    '{ loanTypes(first: 50) { totalCount nodes { id loanType rate maxAmount } } }',
    'loanTypes',
    ours(LOAN),
    (node, doc) =>
      sameMeaning(node.rate, doc.fields.rate) && sameMeaning(node.maxAmount, doc.fields.maxAmount),
  );
  await typedList(
    'typed appointments',
    '{ appointments(first: 50) { totalCount nodes { id title at confirmed durationMinutes attendee { id } } } }',
    'appointments',
    ours(APPOINTMENT),
    (node, doc) =>
      sameMeaning(node.at, doc.fields.at) &&
      node.confirmed === doc.fields.confirmed &&
      sameMeaning((node.attendee as { id: string } | null)?.id, doc.fields.attendee),
  );
  await typedList(
    'typed customers',
    '{ customers(first: 50) { totalCount nodes { id name vip age tags } } }',
    'customers',
    ours(CUSTOMER),
    (node, doc) =>
      node.name === doc.fields.name && node.vip === doc.fields.vip && sameMeaning(node.age, doc.fields.age),
  );
  const fieldIs = (path: string, test: (value: unknown) => boolean) =>
    orders.filter((doc) => test(text(doc, path)));
  const typedFilters: [string, string, string, TruthDoc[]][] = [
    ['typed filter Boolean', 'orders', '{ paid: { equals: true } }', fieldIs('paid', (v) => v === true)],
    [
      'typed filter Float',
      'orders',
      '{ amount: { equals: 250.5 } }',
      fieldIs('amount', (v) => sameMeaning(250.5, v)),
    ],
    [
      'typed filter Int',
      'orders',
      '{ quantity: { equals: 10 } }',
      fieldIs('quantity', (v) => sameMeaning(10, v)),
    ],
    [
      'typed filter Long',
      'orders',
      '{ orderNo: { equals: "9007199254740993" } }',
      fieldIs('orderNo', (v) => sameMeaning('9007199254740993', v)),
    ],
    [
      'typed filter DateTime',
      'orders',
      '{ placedAt: { equals: "2014-03-01T10:00:00.000Z" } }',
      fieldIs('placedAt', (v) => sameMeaning('2014-03-01T10:00:00.000Z', v)),
    ],
    [
      'typed filter reference',
      'orders',
      `{ customer: { id: { equals: "${ravi}" } } }`,
      fieldIs('customer', (v) => sameMeaning(ravi, v)),
    ],
    [
      'typed filter String',
      'orders',
      '{ note: { startsWith: "R" } }',
      fieldIs('note', (v) => typeof v === 'string' && v.startsWith('R')),
    ],
  ];
  // Without placedAt: an upstream serving it in another form fails the field, not the filter asked.
  const filteredFields = 'id orderNo amount quantity paid note city customer { id name }';
  for (const [step, field, filter, expected] of typedFilters)
    await typedList(
      step,
      `{ ${field}(where: ${filter}, first: 50) { totalCount nodes { ${filteredFields} } } }`,
      field,
      expected,
      orderCheck,
    );

  // ------------------------------------------------------------------------------------------ metadata
  {
    const doc = orders[0];
    if (doc) {
      const answer = await call(
        `query { metadata(objectId: "${doc._id}") { objectId category data } }`,
        '{}',
        alice,
      );
      const metaStep = 'metadata';
      if (!errorOutcome(metaStep, answer)) {
        const meta = answer.data?.metadata;
        const textOf = JSON.stringify(meta);
        record(metaStep, textOf.includes(doc._id) && textOf.includes(ORDER) ? 'right' : 'wrong', textOf);
      }
    }
  }

  // ------------------------------------------------------------------------------------------ writes
  /** A write, held to the store: `expect(before)` is each changed document's fields as they should be. */
  const write = async (
    step: string,
    query: string,
    variables: string,
    expect: (
      before: TruthDoc[],
      answerId: string | undefined,
    ) => Map<string, Record<string, unknown> | 'unchanged'>,
    token = alice,
  ): Promise<string | undefined> => {
    const before = await store();
    const answer = await call(query, variables, token);
    await settle();
    const after = await store();
    const beforeById = new Map(before.map((doc) => [doc._id, doc]));
    const changed = after.filter(
      (doc) => beforeById.get(doc._id)?.version !== doc.version || !beforeById.has(doc._id),
    );
    const payload = answer.data
      ? (Object.values(answer.data)[0] as { id?: string; object?: { data?: unknown } } | null)
      : null;
    const answerId = payload?.id;
    const foreign = changed.filter(
      (doc) => doc.organizationCode !== ORG || beforeById.get(doc._id)?.organizationCode === OTHER_ORG,
    );
    if (foreign.length > 0) {
      record(
        step,
        'otherTenant',
        `changed ${foreign.map((doc) => doc._id).join()}: ${JSON.stringify(answer.errors ?? answer.data, bigintText)}`,
      );
      return answerId;
    }
    const expected = expect(before, answerId ?? changed[0]?._id);
    const wrongWrites = changed.filter((doc) => {
      const want = expected.get(doc._id);
      return want === undefined || want === 'unchanged' || !storedAsSent(doc.fields, want);
    });
    // A payload with its id is the write's success; an error beside it is about its read-back `object`.
    if (answer.errors?.length && answerId === undefined) {
      const named = namedError(answer);
      // An outcome the gateway says it does not know ("it may have been applied") hides nothing.
      const applied = answer.errors.some(
        (error) =>
          error.extensions?.applied !== undefined || error.extensions?.code === 'UPSTREAM_OUTCOME_UNKNOWN',
      );
      if (changed.length === 0 && named !== undefined)
        record(step, 'named', `${named}: ${answer.errors[0]?.message ?? ''}`);
      else if (changed.length > 0 && applied && named !== undefined && wrongWrites.length === 0)
        record(step, 'named', `${named} (applied): ${answer.errors[0]?.message ?? ''}`);
      else if (changed.length > 0 && applied && named !== undefined)
        record(
          step,
          'named',
          `${named} (applied, record not as sent): ${answer.errors[0]?.message ?? ''} ${JSON.stringify(wrongWrites.map((doc) => doc.fields))}`,
        );
      else if (changed.length > 0)
        record(
          step,
          'writeBehindError',
          `${JSON.stringify(answer.errors)}; stored ${JSON.stringify(changed.map((doc) => doc.fields))}`,
        );
      else record(step, 'wrong', `unnamed error: ${JSON.stringify(answer.errors)}`);
      return answerId;
    }
    // The write answered its id; an error beside it is about its read-back `object`. A record stored otherwise
    // than sent is honest only where that error says the write was applied.
    if (answer.errors?.length) {
      const named = namedError(answer);
      const applied = answer.errors.some((error) => error.extensions?.applied !== undefined);
      if (named === undefined) record(step, 'wrong', `unnamed error: ${JSON.stringify(answer.errors)}`);
      else
        record(
          step,
          wrongWrites.length > 0 && !applied ? 'corrupted' : 'named',
          `${named} (the write answered its id${wrongWrites.length > 0 ? ', record not as sent' : ''}): ${answer.errors[0]?.message ?? ''}`,
        );
      return answerId;
    }
    if (wrongWrites.length > 0) {
      record(
        step,
        'corrupted',
        `stored ${JSON.stringify(wrongWrites.map((doc) => doc.fields))}; expected ${JSON.stringify([...expected.values()], bigintText)}`,
      );
      return answerId;
    }
    const target = after.find((doc) => doc._id === answerId);
    const served = payload?.object?.data;
    if (served !== undefined && target && !sameRecord(served, target)) {
      record(
        step,
        'wrong',
        `answered ${JSON.stringify(served, bigintText)} for ${JSON.stringify(target.fields)}`,
      );
      return answerId;
    }
    if (changed.length === 0 && [...expected.values()].some((value) => value !== 'unchanged')) {
      record(step, 'wrong', `answered success, nothing written: ${JSON.stringify(answer.data, bigintText)}`);
      return answerId;
    }
    record(step, 'right');
    return answerId;
  };
  const SAVE =
    'mutation($n: String!, $d: JSONObject!) { saveObject(objectName: $n, data: $d) { id object { id data } } }';
  const UPDATE =
    'mutation($id: ID!, $n: String!, $d: JSONObject!) { updateObject(id: $id, objectName: $n, data: $d) { id updatedFields object { id data } } }';
  const created = (fields: Record<string, unknown>) => (_before: TruthDoc[], id: string | undefined) =>
    new Map([[id ?? '', fields]]);
  const merged = (id: string, fields: Record<string, unknown>) => (before: TruthDoc[]) => {
    const doc = before.find((d) => d._id === id);
    const base = doc ? structuredClone(doc.fields) : {};
    // The store's tagged values compare as themselves.
    return new Map([[id, { ...untag(base), ...fields }]]);
  };
  const plain = { title: 'plain', n: 5, f: 2.5, ok: true, tags: ['a', 'b'], nested: { k: 'v' } };
  const first = await write('save new', SAVE, JSON.stringify({ n: SCRATCH, d: plain }), created(plain));
  const markup = { title: "  <b>Bold</b> & 'quoted'  " };
  await write('save markup and spaces', SAVE, JSON.stringify({ n: SCRATCH, d: markup }), created(markup));
  const scripts = { note: 'Zoë Ελληνικά 😀' };
  await write('save non-Latin text', SAVE, JSON.stringify({ n: SCRATCH, d: scripts }), created(scripts));
  await write(
    'save a long past 2^53',
    SAVE,
    `{"n":"${SCRATCH}","d":{"big":9007199254740993}}`,
    created({ big: 9007199254740993n }),
  );
  const long = { text: 'x'.repeat(300) };
  await write('save a 300-character text', SAVE, JSON.stringify({ n: SCRATCH, d: long }), created(long));
  const loanIn = { loanType: 'Test Loan', description: 'typed save', rate: 3.75, extra: 'kept?' };
  await write(
    'save LoanType with a decimal rate and an undeclared field',
    SAVE,
    JSON.stringify({ n: LOAN, d: loanIn }),
    created(loanIn),
  );
  const orderIn = { orderNo: 5005, amount: 19.99, paid: false, note: 'new order' };
  await write(
    'save Order with amount 19.99',
    SAVE,
    JSON.stringify({ n: ORDER, d: orderIn }),
    created(orderIn),
  );
  if (first) {
    await write(
      'update a number',
      UPDATE,
      JSON.stringify({ id: first, n: SCRATCH, d: { n: 6 } }),
      merged(first, { n: 6 }),
    );
    await write(
      'update accented text',
      UPDATE,
      JSON.stringify({ id: first, n: SCRATCH, d: { title: 'Zoë' } }),
      merged(first, { title: 'Zoë' }),
    );
    await write(
      'save with _id, one field',
      SAVE,
      JSON.stringify({ n: SCRATCH, d: { _id: first, ok: false } }),
      merged(first, { ok: false }),
    );
  }
  const foreignLoan = theirs.find((doc) => doc.objectName === LOAN);
  if (foreignLoan) {
    const untouched = () =>
      new Map<string, Record<string, unknown> | 'unchanged'>([[foreignLoan._id, 'unchanged']]);
    await write(
      "update another organization's record",
      UPDATE,
      JSON.stringify({ id: foreignLoan._id, n: LOAN, d: { description: 'hacked' } }),
      untouched,
    );
    await write(
      "save with another organization's _id",
      SAVE,
      JSON.stringify({ n: LOAN, d: { _id: foreignLoan._id, description: 'hacked' } }),
      untouched,
    );
  }
  const seedOrder = orders[1];
  if (seedOrder)
    await write(
      'update a seeded Order',
      UPDATE,
      JSON.stringify({ id: seedOrder._id, n: ORDER, d: { note: 'Updated' } }),
      merged(seedOrder._id, { note: 'Updated' }),
    );

  // ------------------------------------------------------------------------------------------ after writes
  const now = await store();
  const oursNow = (objectName: string) =>
    now.filter((doc) => doc.objectName === objectName && doc.organizationCode === ORG);
  await objects('objects LoanType after writes', LOAN, null, oursNow(LOAN));
  {
    const seen: string[] = [];
    let after: string | null = null;
    let failed = false;
    for (let page = 0; page < 6; page++) {
      const answer = await call(
        `query($after: String) { objects(objectName: "${ORDER}", first: 2, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }`,
        JSON.stringify({ after }),
        alice,
      );
      if (errorOutcome('paging Order after writes', answer)) {
        failed = true;
        break;
      }
      const connection = answer.data?.objects as {
        nodes: { id: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      seen.push(...connection.nodes.map((node) => node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
      // Another writer between two pages, as in real use.
      if (page === 0 && orders[0])
        await write(
          'update between pages',
          UPDATE,
          JSON.stringify({ id: orders[0]._id, n: ORDER, d: { note: 'moved' } }),
          merged(orders[0]._id, { note: 'moved' }),
        );
    }
    if (!failed) {
      const want = now
        .filter((doc) => doc.objectName === ORDER && doc.organizationCode === ORG)
        .map((doc) => doc._id);
      const ok = seen.length === want.length && want.every((id) => seen.includes(id));
      record(
        'paging Order after writes',
        ok ? 'right' : 'wrong',
        ok ? undefined : `${JSON.stringify(seen)} for ${JSON.stringify(want)}`,
      );
    }
  }
  if (bob) {
    // Right after alice's read of the same page: a cache keyed without the tenant would serve hers.
    await call(`query { objects(objectName: "${LOAN}", first: 50) { nodes { id } } }`, '{}', alice);
    const answer = await call(
      `query { objects(objectName: "${LOAN}", first: 50) { totalCount nodes { id data } } }`,
      '{}',
      bob,
    );
    const step = 'objects LoanType as the other organization';
    if (!errorOutcome(step, answer)) {
      const nodes = (answer.data?.objects as { nodes: { id: string }[] } | undefined)?.nodes ?? [];
      const byId = new Map((await store()).map((doc) => [doc._id, doc]));
      const wantIds = (await store())
        .filter((doc) => doc.objectName === LOAN && doc.organizationCode === OTHER_ORG)
        .map((doc) => doc._id);
      if (nodes.some((node) => byId.get(node.id)?.organizationCode !== OTHER_ORG))
        record(step, 'otherTenant', nodes.map((node) => node.id).join());
      else if (nodes.length === wantIds.length && nodes.every((node) => wantIds.includes(node.id)))
        record(step, 'right');
      else record(step, 'wrong', JSON.stringify(nodes));
    }
  }

  // ------------------------------------------------------------------------------------------ expiry
  await fetch(`${upstreamUrl}/__debug/expire?username=alice`);
  {
    const step = 'read after the upstream session expired';
    const answer = await call(
      `query { objects(objectName: "${LOAN}", first: 5) { totalCount nodes { id } } }`,
      '{}',
      alice,
    );
    if (!errorOutcome(step, answer))
      record(step, 'wrong', `answered as a success: ${JSON.stringify(answer.data)}`);
  }
  return { counts: tally(steps), steps };
}

/** The store's tagged values back to what was sent for them (a merge keeps them as they were). */
function untag(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (isRecord(value) && '$double' in value) out[key] = value.$double;
    else if (isRecord(value) && '$numberLong' in value) out[key] = BigInt(String(value.$numberLong));
    else out[key] = value;
  }
  return out;
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value.toString()}n` : value;
}

function tally(steps: StepResult[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = {
    right: 0,
    named: 0,
    wrong: 0,
    writeBehindError: 0,
    corrupted: 0,
    otherTenant: 0,
  };
  for (const step of steps) counts[step.outcome]++;
  return counts;
}
