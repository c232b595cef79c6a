/**
 * The body of a JSONP save (`/studio/jsonp/save`, callback `cb`) of `data` as a new `objectName` object in the
 * demo tenant with `apiToken`; `extra` added last (it may replace any field), for the emulator's write tests.
 */
import { DEMO } from '../../emulator/index.ts';

export function demoSaveBody(
  apiToken: string,
  objectName: string,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    objectName,
    data,
    apiToken,
    applicationCode: DEMO.applicationCode,
    organizationCode: DEMO.organizationCode,
    callback: 'cb',
    ...extra,
  };
}
