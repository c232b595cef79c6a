/**
 * The validated settings, as the rest of the gateway reads them: derived from their one description
 * (`env-schema.ts`; each field's doc line and variable are there) and the derived values
 * (`derived-settings.ts`). Durations carry their unit in the name.
 */
import type { DerivedSettings } from './derived-settings.ts';
import type { SETTINGS } from './env-schema.ts';
import type { ConfigOf } from './setting.ts';

export type { UpstreamTarget } from './derived-settings.ts';

/** The validated settings (see the module comment). */
export type GatewayConfig = ConfigOf<typeof SETTINGS> & DerivedSettings;
