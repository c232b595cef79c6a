/**
 * What every probe of the check shares: the settings, the gateway's own upstream client (paced), the raw
 * view, the gateway's pattern guard, the session, and what earlier probes learnt.
 */
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { PatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type {
  MatchesMode,
  PageStartMode,
  UpstreamClient,
  UpstreamClientSettings,
  UpstreamCredentials,
  UpstreamRecord,
  UpstreamUrls,
} from '../upstream/client/types.ts';
import type { Finding } from './probes/finding.ts';
import type { RawUpstream } from './raw-upstream.ts';

/** What earlier probes learnt, for the later ones. */
export interface Learnt {
  /** The `pageStart` of the first page: `0`, or `1` when the upstream refuses `0` or answers it empty. */
  firstPageStart: number;
  /** What `pageStart=0` answered when the first page is `1`. */
  pageZero?: 'refused' | 'empty' | undefined;
  /** How `pageStart` counts, once determined. */
  pageStart: PageStartMode | undefined;
  /** How `matches` compares, once determined. */
  matches: MatchesMode | undefined;
  /** The first records of `--object-name`, in the upstream's order. */
  sample: UpstreamRecord[];
  /** The record the filter probes aim at. */
  target: UpstreamRecord | undefined;
  /** The object type the read probes read: `--object-name`, or one of `schema/objects/` that answered. */
  objectName: string | undefined;
  /**
   * The `UPSTREAM_CALLER_ERROR_PATTERN` the gateway should use (the setting's, or the one recommended), once
   * the unknown-name probe found how the upstream words an unknown name.
   */
  callerErrorPattern: RegExp | undefined;
  /**
   * How long the longest write took to read back (`0`: at once), and whether one never did within the
   * check's wait: what the write probes say of `UPSTREAM_WRITE_READ_BACK_MS`.
   */
  readLag?: { longestMillis: number; unseen: number };
}

/** See the module comment. */
export interface CheckContext {
  config: GatewayConfig;
  urls: UpstreamUrls;
  /**
   * The gateway's client with `pageStartMode: 'page0'` (so `pageIndex` is sent as `pageStart` unchanged) and
   * `matchesMode: 'regex'` (patterns sent as written: the probes anchor by hand), paced.
   */
  client: UpstreamClient;
  raw: RawUpstream;
  /**
   * The gateway's client again, with some of its settings changed (a dialect the probe tries), paced like
   * {@link client}; closed with it.
   */
  clientWith(settings: Partial<UpstreamClientSettings>): UpstreamClient;
  /** Every pattern the check sends passes it first, as every caller pattern of the gateway does. */
  guard: PatternGuard;
  credentials: UpstreamCredentials;
  /** `--object-name` as given (the type read is `learnt.objectName`). */
  objectName: string | undefined;
  learnt: Learnt;
  /** Adds a finding to the report. */
  report(finding: Finding): void;
}
