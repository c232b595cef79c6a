/**
 * `npm run upstream:check` against the emulator's paging dialects (`EMULATOR_MAX_PAGE_SIZE`,
 * `EMULATOR_PAGE_START=page1` with `EMULATOR_PAGE_ZERO=empty`, `EMULATOR_TOTAL_COUNT`): the page base found
 * before the page size, the largest page recommended as `UPSTREAM_MAX_PAGE_SIZE` (never CANNOT SERVE), the
 * forms of `totalCount` reported, and the gateway, on that advice, paging every record exactly once.
 */
import { describe, expect, it } from 'vitest';
import { startGateway } from '../support/gateway-harness.ts';
import { runUpstreamCheck, verdictOf } from './check-command.ts';
import { expectRecommended } from './expect-recommended.ts';
import { useCheckEmulators, detailOf } from './check-emulators.ts';

const READ = ['--object-name', 'com.example.Order'];

const emulator = useCheckEmulators();

/** Pages through all 250 orders with `first` on a gateway started with the check's settings. */
async function pageAllOrders(url: string, env: Record<string, string>, first: number): Promise<string[]> {
  const gateway = await startGateway({ upstreamUrl: url, env, listen: false });
  try {
    const login = await gateway.post(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    );
    const auth = { authorization: `Bearer ${(login.data?.login as { token: string }).token}` };
    const ids: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 50; i++) {
      const answer = await gateway.post(
        'query ($first: Int, $after: String) { orders(first: $first, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }',
        { first, after },
        auth,
      );
      expect(answer.errors).toBeUndefined();
      const page = answer.data?.orders as {
        totalCount: number;
        nodes: { id: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      expect(page.totalCount).toBe(250);
      ids.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    return ids;
  } finally {
    await gateway.close();
  }
}

describe('npm run upstream:check, paging dialects', () => {
  it.each([150, 25])(
    'should write UPSTREAM_MAX_PAGE_SIZE=%i for an upstream serving at most that many records a call',
    async (cap) => {
      const { url } = await emulator({ maxPageSize: cap });
      const run = await runUpstreamCheck({ url }, READ);
      expect(run.code).toBe(0);
      expect(verdictOf(run, 'largest page size')).toBe('differs');
      expect(run.env.UPSTREAM_MAX_PAGE_SIZE).toBe(String(cap));
      expect(run.env.MAX_PAGE_SIZE).toBeUndefined();
      const ids = await pageAllOrders(url, run.env, 100);
      expect(ids).toHaveLength(250);
      expect(new Set(ids).size).toBe(250);
    },
  );

  it('should find a one-based upstream whose page 0 is empty before probing its page size', async () => {
    const { url } = await emulator({ pageStart: 'page1', pageZero: 'empty' });
    const run = await runUpstreamCheck({ url }, READ);
    expectRecommended(run, 'pageStart base', 'UPSTREAM_PAGE_START=page1', 'pageStart=0 is answered empty');
    expect(verdictOf(run, 'largest page size')).toBe('as-assumed');
    expect(run.stdout).not.toContain('at most 0 records');
  });

  it.each([
    ['string', 'text ("31")'],
    ['omit-when-empty', 'left out, which the gateway reads as 0'],
  ] as const)('should report a totalCount written as %s as read by the gateway', async (totalCount, said) => {
    const { url } = await emulator({ totalCount });
    const run = await runUpstreamCheck({ url }, READ);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'getAll')).toBe('as-assumed');
    expect(verdictOf(run, 'totalCount form')).toBe('as-assumed');
    expect(detailOf(run, 'totalCount form')).toContain(said);
    expect(verdictOf(run, 'totalCount')).toBe('as-assumed');
  });

  it('should report every paging row at once for an upstream speaking all these dialects, whose advice the gateway pages right on', async () => {
    const { url } = await emulator({
      pageStart: 'page1',
      pageZero: 'empty',
      maxPageSize: 25,
      totalCount: 'omit-when-empty',
    });
    const run = await runUpstreamCheck({ url }, READ);
    expect(run.code).toBe(0);
    expect(run.env.UPSTREAM_PAGE_START).toBe('page1');
    expect(run.env.UPSTREAM_MAX_PAGE_SIZE).toBe('25');
    expect(detailOf(run, 'totalCount form')).toContain('left out');
    const ids = await pageAllOrders(url, run.env, 60);
    expect(new Set(ids).size).toBe(250);
    expect(ids).toHaveLength(250);
  });
});
