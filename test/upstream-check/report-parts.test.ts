/**
 * The check's pure parts: naming an answer's JSONP wrapper as docs/design.md does, reading it as the gateway
 * would, and turning findings into settings and an exit code.
 */
import { describe, expect, it } from 'vitest';
import { collectSettings, exitCodeOf, type Finding } from '../../src/upstream-check/probes/finding.ts';
import { renderEnv, renderReport } from '../../src/upstream-check/render-report.ts';
import { decodeAsGateway, wrapperForm } from '../../src/upstream-check/probes/wrapper-form.ts';

describe('wrapperForm', () => {
  it.each([
    ['cb({"a":1});', 'name(JSON);'],
    ['cb({"a":1})', 'name(JSON)'],
    ['\uFEFF cb({"a":1});', 'BOM name(JSON);'],
    ['/**/ cb({"a":1});', '/**/ name(JSON);'],
    ['/**/ typeof cb === \'function\' && cb({"a":1});', "/**/ typeof name === 'function' && name(JSON);"],
    ['{"a":1}', 'bare JSON'],
    ['<html>500</html>', 'not JSON or JSONP'],
  ])('should name %j as %s', (text, form) => {
    expect(wrapperForm(text)).toBe(form);
  });
});

describe('decodeAsGateway', () => {
  it('should read an answer in the callback it sent, and tell another callback from an unreadable body', () => {
    expect(decodeAsGateway('cb_1({"status":"success"});', 'cb_1')).toMatchObject({ ok: true });
    expect(decodeAsGateway('other({"status":"success"});', 'cb_1')).toMatchObject({
      ok: false,
      otherCallback: true,
    });
    expect(decodeAsGateway('<html>', 'cb_1')).toMatchObject({ ok: false, otherCallback: false });
  });
});

describe('findings to settings and exit code', () => {
  const findings: Finding[] = [
    { topic: 'a', verdict: 'as-assumed', detail: '', settings: { UPSTREAM_PAGE_START: 'page0' } },
    { topic: 'b', verdict: 'differs', detail: '', settings: { UPSTREAM_MATCHES: 'find' } },
    { topic: 'c', verdict: 'cannot-tell', detail: '', settings: { MAX_PAGE_SIZE: '1' } },
  ];

  it('should write the settings of as-assumed and differing findings only, one KEY=value line each', () => {
    expect(renderEnv(collectSettings(findings))).toBe('UPSTREAM_PAGE_START=page0\nUPSTREAM_MATCHES=find\n');
  });

  it('should exit 0 unless a finding cannot be served', () => {
    expect(exitCodeOf(findings)).toBe(0);
    expect(exitCodeOf([...findings, { topic: 'd', verdict: 'cannot-serve', detail: '' }])).toBe(1);
  });
});

describe('renderReport', () => {
  const report = (exitCode: number) =>
    renderReport({
      checkedAt: '2026-01-01T00:00:00.000Z',
      upstream: { apiUrl: 'u', baseUrl: 'u', studioUrl: 'http://upstream', serverUrl: 'u' },
      objectName: undefined,
      writesAllowed: false,
      writeObjectName: undefined,
      requests: 3,
      findings: [{ topic: 'getAll', verdict: 'cannot-tell', detail: 'not probed' }],
      settings: {},
      exitCode,
    });

  it.each([
    [0, 'The gateway can work with this upstream with these settings.'],
    [1, 'The gateway CANNOT work with this upstream as it is: see the CANNOT SERVE rows.'],
    [
      2,
      'The check could not read one object type: it cannot tell whether the gateway can work with this upstream.',
    ],
  ])('should end a report of exit code %i with its meaning', (exitCode, last) => {
    expect(report(exitCode).trimEnd().split('\n').at(-1)).toBe(last);
  });
});
