/**
 * The workloads: what each asks, in GraphQL for the GraphQL peers and as the equivalent JSONP call for P0,
 * who asks it (one session per connection, or one session for all), and the answer every response must
 * equal. Ids travel in variables, never in the query text, so a peer's document cache sees one document
 * per workload.
 */
import { SESSIONS } from './bench-users.ts';

/** Workload ids, in the order the table shows them. */
export const WORKLOAD_IDS = ['W1', 'W2', 'W3', 'W3T', 'W4', 'W5', 'W2H'] as const;
/** A workload id. */
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

/**
 * Who sends a workload: `per-connection` = connection `i` is bench user `i`, logged in before the run (what
 * users see: their reads are never shared); `one` = every connection uses the demo user's one session (what
 * coalescing of identical in-flight reads can do at best).
 */
export type Sessions = 'per-connection' | 'one';

/** What a workload is and how hard it pushes. */
export interface Workload {
  id: WorkloadId;
  title: string;
  connections: number;
  sessions: Sessions;
}

/** The workloads; W5 is W1's shape on one hot object and one session under 100 clients, W2H W2's. */
export const WORKLOADS: Record<WorkloadId, Workload> = {
  W1: { id: 'W1', title: 'one object by id', connections: SESSIONS, sessions: 'per-connection' },
  W2: { id: 'W2', title: 'a page of 50 objects', connections: SESSIONS, sessions: 'per-connection' },
  W3: {
    id: 'W3',
    title: '50 orders with their customer (N+1)',
    connections: SESSIONS,
    sessions: 'per-connection',
  },
  W3T: {
    id: 'W3T',
    title: 'W3 through the typed API (@ref)',
    connections: SESSIONS,
    sessions: 'per-connection',
  },
  W4: { id: 'W4', title: 'save a new object', connections: SESSIONS, sessions: 'per-connection' },
  W5: { id: 'W5', title: 'one hot object, one session, 100 clients', connections: 100, sessions: 'one' },
  W2H: { id: 'W2H', title: 'W2 on one session (hot page)', connections: SESSIONS, sessions: 'one' },
};

/** Saves last: they grow the emulator's store, which must not change what the read workloads measure. */
export const EXECUTION_ORDER: readonly WorkloadId[] = ['W1', 'W2', 'W3', 'W3T', 'W5', 'W2H', 'W4'];

/** Type names of the emulator's demo data. */
export const TYPES = {
  loanType: 'com.example.LoanType',
  customer: 'com.example.Customer',
  order: 'com.example.Order',
} as const;

/** The page size of W2 and W3. */
export const PAGE_SIZE = 50;

/** A GraphQL request body: `operationName` lets P1 pick its handler without parsing the document. */
export interface GraphQLBody {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}

const OBJECT = `query Object($objectName: String!, $id: ID!) {
  object(objectName: $objectName, id: $id) { id data }
}`;

const OBJECTS = `query Objects($objectName: String!, $first: Int) {
  objects(objectName: $objectName, first: $first) { totalCount nodes { id data } }
}`;

const ORDERS_WITH_CUSTOMERS = `query OrdersWithCustomers($objectName: String!, $first: Int, $refPath: String!, $refObjectName: String!) {
  objects(objectName: $objectName, first: $first) {
    totalCount
    nodes { id data ref(path: $refPath, objectName: $refObjectName) { id data } }
  }
}`;

/**
 * W3 as a front-end writes it against the typed API (`schema/objects/`): the same page and references, each
 * order's `customer` an `@ref(field: "customer.id")` resolved through the same batching loader.
 */
const TYPED_ORDERS = `query TypedOrders($first: Int) {
  orders(first: $first) {
    totalCount
    nodes { id number total status customer { id name email mobile city country } }
  }
}`;

const SAVE = `mutation Save($objectName: String!, $data: JSONObject!) {
  saveObject(objectName: $objectName, data: $data) { id }
}`;

/** The fields of the object every W4 request saves (each save creates a new object). */
export const SAVED_FIELDS = { loanType: 'Benchmark', description: 'Created by npm run bench' };

const body = (operationName: string, query: string, variables: Record<string, unknown>): GraphQLBody => ({
  operationName,
  query,
  variables,
});

/** The GraphQL request of a workload; `objectId` is the object W1 or W5 asks for. */
export function graphqlBody(workload: WorkloadId, objectId = ''): GraphQLBody {
  switch (workload) {
    case 'W1':
    case 'W5':
      return body('Object', OBJECT, { objectName: TYPES.loanType, id: objectId });
    case 'W2':
    case 'W2H':
      return body('Objects', OBJECTS, { objectName: TYPES.order, first: PAGE_SIZE });
    case 'W3':
      return body('OrdersWithCustomers', ORDERS_WITH_CUSTOMERS, {
        objectName: TYPES.order,
        first: PAGE_SIZE,
        refPath: 'customer.id',
        refObjectName: TYPES.customer,
      });
    case 'W3T':
      return body('TypedOrders', TYPED_ORDERS, { first: PAGE_SIZE });
    case 'W4':
      return body('Save', SAVE, { objectName: TYPES.loanType, data: SAVED_FIELDS });
  }
}

/** A record as the upstream returns it. */
export interface UpstreamRecord {
  _id: string;
  [field: string]: unknown;
}

/** How many different objects W1 asks for (connection `i` asks for object `i % 10`). */
export const W1_OBJECTS = 10;

/** What the emulator holds that the expected answers are built from (read directly, not through a peer). */
export interface Fixture {
  /** W1's objects (one per connection) and W5's hot object: loan types. */
  objects: UpstreamRecord[];
  hotObject: UpstreamRecord;
  orders: { totalCount: number; page: UpstreamRecord[] };
  customersById: Map<string, UpstreamRecord>;
}

/**
 * One request variant (connection `i` sends variant `i % n`): the object it asks for (W1, W5) and whose
 * session sends it: bench user `session` (`bench-users.ts`), or the demo user's one session (`undefined`).
 */
export interface Variant {
  object: UpstreamRecord | undefined;
  session: number | undefined;
}

/**
 * The request variants of a workload. Per-connection workloads have one per connection, each its own
 * session (W1's connection `i` asks for object `i % 10`: never shared, as the sessions differ); W5 asks for
 * its hot object and W2H for the page, both on one session.
 */
export function workloadVariants(workload: WorkloadId, fixture: Fixture): Variant[] {
  const { connections, sessions } = WORKLOADS[workload];
  const objectOf = (index: number): UpstreamRecord | undefined => {
    if (workload === 'W5') return fixture.hotObject;
    if (workload === 'W1') return fixture.objects[index % fixture.objects.length];
    return undefined;
  };
  if (sessions === 'one') return [{ object: objectOf(0), session: undefined }];
  return Array.from({ length: connections }, (_, index) => ({ object: objectOf(index), session: index }));
}

function node(record: UpstreamRecord): { id: string; data: UpstreamRecord } {
  return { id: record._id, data: record };
}

/** A record's value at a dotted path (`address.city`), `null` where it has none: what a typed field answers. */
function at(record: UpstreamRecord, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** A customer as W3T selects it (`schema/objects/customer.graphql`). */
export function typedCustomer(customer: UpstreamRecord): Record<string, unknown> {
  return {
    id: customer._id,
    name: at(customer, 'name'),
    email: at(customer, 'email'),
    mobile: at(customer, 'mobile'),
    city: at(customer, 'address.city'),
    country: at(customer, 'address.country'),
  };
}

/** An order as W3T selects it (`schema/objects/order.graphql`), its customer from `customersById`. */
export function typedOrder(
  order: UpstreamRecord,
  customersById: ReadonlyMap<string, UpstreamRecord>,
): Record<string, unknown> {
  const customerId = at(order, 'customer.id');
  const customer = typeof customerId === 'string' ? customersById.get(customerId) : undefined;
  return {
    id: order._id,
    number: at(order, 'number'),
    total: at(order, 'total'),
    status: at(order, 'status'),
    customer: customer === undefined ? null : typedCustomer(customer),
  };
}

/** The `data` every GraphQL peer must answer for a read workload, for the variant asking for `object`. */
export function expectedGraphqlData(
  workload: Exclude<WorkloadId, 'W4'>,
  fixture: Fixture,
  object: UpstreamRecord | undefined,
): unknown {
  switch (workload) {
    case 'W1':
    case 'W5':
      return { object: object === undefined ? null : node(object) };
    case 'W2':
    case 'W2H':
      return { objects: { totalCount: fixture.orders.totalCount, nodes: fixture.orders.page.map(node) } };
    case 'W3':
      return {
        objects: {
          totalCount: fixture.orders.totalCount,
          nodes: fixture.orders.page.map((order) => {
            const customerId = (order.customer as { id?: unknown } | undefined)?.id;
            const customer =
              typeof customerId === 'string' ? fixture.customersById.get(customerId) : undefined;
            return { ...node(order), ref: customer === undefined ? null : node(customer) };
          }),
        },
      };
    case 'W3T':
      return {
        orders: {
          totalCount: fixture.orders.totalCount,
          nodes: fixture.orders.page.map((order) => typedOrder(order, fixture.customersById)),
        },
      };
  }
}
