/**
 * The charset probe's verdicts on answers the emulator never gives: answers that name no charset (sniffed:
 * valid UTF-8 beyond ASCII is UTF-8, bytes 0x80–0x9F are windows-1252), a charset the gateway does not know,
 * and answers labelled UTF-8 that are not.
 */
import { describe, expect, it } from 'vitest';
import {
  answerCharsetFinding,
  BEYOND_LATIN1_TEXT,
  judgeRoundTrip,
  LATIN1_TEXT,
  requestCharsetFinding,
} from '../../src/upstream-check/probes/probe-charset.ts';
import type { RawRead } from '../../src/upstream-check/raw-upstream.ts';

const CALLBACK = 'cb_1';

function rawRead(text: string, encoding: 'utf8' | 'latin1', contentType: string | undefined): RawRead {
  // As Java writes Latin-1: ? for what it lacks.
  const bytes = Buffer.from(
    encoding === 'latin1' ? text.replace(/[\u0100-\u{10ffff}]/gu, '?') : text,
    encoding,
  );
  return { callback: CALLBACK, targetBytes: 100, outcome: { ok: true, text, bytes, contentType } };
}

const page = (record: Record<string, unknown>) =>
  `${CALLBACK}(${JSON.stringify({ status: 'success', totalCount: 1, data: [record] })});`;

describe('the charset answers name (read-only)', () => {
  const sample = page({ _id: 'a', name: 'Société Générale' });

  it.each([
    ['application/javascript; charset=ISO-8859-1', 'latin1', 'utf-8', 'as-assumed', undefined],
    ['application/javascript; charset=Shift_JIS', 'utf8', 'utf-8', 'cannot-serve', undefined],
    ['application/javascript; charset=UTF-8', 'latin1', 'utf-8', 'cannot-serve', undefined],
    ['application/javascript', 'latin1', 'utf-8', 'differs', 'iso-8859-1'],
    ['application/javascript', 'utf8', 'iso-8859-1', 'differs', 'utf-8'],
    ['application/javascript', 'utf8', 'utf-8', 'as-assumed', undefined],
  ] as const)(
    'should judge %j with %s bytes (setting %s) %s',
    (contentType, encoding, fallback, verdict, setting) => {
      const finding = answerCharsetFinding(rawRead(sample, encoding, contentType), fallback);
      expect(finding.verdict).toBe(verdict);
      expect(finding.settings?.UPSTREAM_ANSWER_CHARSET).toBe(setting);
    },
  );

  it('should take windows-1252 for unlabelled bytes in 0x80–0x9F (curly quotes, €)', () => {
    const read = rawRead(page({ _id: 'a', name: '“€”' }), 'utf8', undefined);
    const bytes = Buffer.from(page({ _id: 'a', name: 'XqX' }).replace('XqX', '\u0093\u0080\u0094'), 'latin1');
    const finding = answerCharsetFinding(
      { ...read, outcome: { ...read.outcome, bytes } as RawRead['outcome'] },
      'utf-8',
    );
    expect(finding.settings?.UPSTREAM_ANSWER_CHARSET).toBe('windows-1252');
  });

  it('should not tell from an ASCII sample without a label', () => {
    expect(
      answerCharsetFinding(rawRead(page({ _id: 'a' }), 'utf8', 'application/javascript'), 'utf-8').verdict,
    ).toBe('cannot-tell');
  });
});

describe('text read back (with writes)', () => {
  const saved = page({ _id: 'a', latin1: LATIN1_TEXT, beyond: BEYOND_LATIN1_TEXT });

  it('should call an answer labelled UTF-8 that is Latin-1 mislabelled, which no setting fixes', () => {
    const judged = judgeRoundTrip(rawRead(saved, 'latin1', 'application/javascript; charset=UTF-8'), 'utf-8');
    expect(judged.findings[0]).toMatchObject({
      verdict: 'cannot-serve',
      detail: expect.stringMatching(/mislabels/) as unknown,
    });
  });

  it('should recommend the charset an unlabelled answer is in', () => {
    const judged = judgeRoundTrip(rawRead(saved, 'latin1', undefined), 'utf-8');
    expect(judged.findings[0]).toMatchObject({
      verdict: 'differs',
      settings: { UPSTREAM_ANSWER_CHARSET: 'iso-8859-1' },
    });
    expect(judged.charset).toBe('iso-8859-1');
  });

  it('should recommend UPSTREAM_REQUEST_CHARSET=iso-8859-1 when a body declared UTF-8 was read as Latin-1', () => {
    const mojibake = Buffer.from(LATIN1_TEXT, 'utf8').toString('latin1');
    const read = rawRead(
      page({ _id: 'b', latin1: mojibake }),
      'latin1',
      'text/javascript;charset=ISO-8859-1',
    );
    expect(requestCharsetFinding(read, 'iso-8859-1', 'utf-8')).toMatchObject({
      verdict: 'differs',
      settings: { UPSTREAM_REQUEST_CHARSET: 'iso-8859-1' },
    });
  });
});
