/**
 * An OTLP receiver ({@link startOtlpReceiver}) for the calling test file: started before its tests, closed after
 * them. The object answered stands for the receiver of the run, so that it can be held from the file's top.
 */
import { afterAll, beforeAll } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts';

export function useOtlpReceiver(): OtlpReceiver {
  let receiver: OtlpReceiver | undefined;
  const started = (): OtlpReceiver => {
    if (receiver === undefined) throw new Error('the OTLP receiver is not started yet');
    return receiver;
  };
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return {
    get url() {
      return started().url;
    },
    spans: () => started().spans(),
    paths: () => started().paths(),
    waitFor: (done) => started().waitFor(done),
    close: () => started().close(),
  };
}
