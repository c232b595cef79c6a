import { open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { PersistedObject } from './object-store.ts';
import { parseJavaJson } from './parse-java-json.ts';

/** The durable copy of the store: one JSON file, replaced atomically on every write. */
export interface DataFile {
  /** The objects in the file, or `undefined` when there is no file yet. Throws when the file is unusable. */
  load(): Promise<PersistedObject[] | undefined>;
  /**
   * Writes the store's state as `snapshot()` returns it when the write starts, and resolves once it is
   * on disk. Calls made while a write runs share the next write (group commit), so a burst of saves costs
   * two writes, not one per save.
   */
  persist(snapshot: () => PersistedObject[]): Promise<void>;
  /** Resolves when no write is running or queued. */
  settled(): Promise<void>;
}

const FORMAT = 'upstream-emulator/1';

const fileSchema = z.object({
  format: z.literal(FORMAT),
  objects: z.array(
    z.object({
      objectName: z.string(),
      applicationCode: z.string(),
      organizationCode: z.string(),
      createdAt: z.string(),
      updatedAt: z.string(),
      createdBy: z.string(),
      version: z.int().min(1),
      record: z.looseObject({ _id: z.string() }),
    }),
  ),
});

const isErrno = (error: unknown, code: string): boolean =>
  error instanceof Error && 'code' in error && error.code === code;

/** Opens (without reading yet) the data file at `path`. */
export function openDataFile(path: string): DataFile {
  const dir = dirname(path);
  const tempPrefix = `.${basename(path)}.`;
  let tempCounter = 0;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;

  /** Temp file in the same directory (rename is only atomic within a file system), fsync, rename. */
  async function writeNow(snapshot: () => PersistedObject[]): Promise<void> {
    const text = JSON.stringify({ format: FORMAT, objects: snapshot() });
    const temp = join(dir, `${tempPrefix}${process.pid}.${tempCounter++}.tmp`);
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    // The rename itself is durable only once the directory entry is flushed.
    const dirHandle = await open(dir, 'r').catch(() => undefined);
    await dirHandle?.sync().catch(() => undefined);
    await dirHandle?.close();
  }

  const start = (snapshot: () => PersistedObject[]): Promise<void> => {
    const write = writeNow(snapshot).finally(() => {
      if (running === write) running = undefined;
    });
    running = write;
    return write;
  };

  return {
    async load() {
      // A crash between writing a temp file and renaming it leaves the temp behind: never read, cleaned here.
      const names = await readdir(dir).catch(() => []);
      for (const name of names) {
        if (name.startsWith(tempPrefix) && name.endsWith('.tmp'))
          await unlink(join(dir, name)).catch(() => undefined);
      }
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if (isErrno(error, 'ENOENT')) return undefined;
        throw new Error(
          `cannot read the data file ${path}: ${error instanceof Error ? error.message : 'unknown'}`,
          { cause: error },
        );
      }
      let parsed: unknown;
      try {
        parsed = parseJavaJson(text);
      } catch (error) {
        throw new Error(`the data file ${path} is not valid JSON; move it away to start from the seed data`, {
          cause: error,
        });
      }
      const result = fileSchema.safeParse(parsed);
      if (!result.success) {
        throw new Error(
          `the data file ${path} is not an emulator data file (${FORMAT}); move it away to start afresh`,
        );
      }
      return result.data.objects;
    },
    persist(snapshot) {
      if (running === undefined) return start(snapshot);
      // The running write may have taken its snapshot before this change: join (or open) the next one.
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return start(snapshot);
        });
      return queued;
    },
    async settled() {
      while (running !== undefined || queued !== undefined) await (queued ?? running)?.catch(() => undefined);
    },
  };
}
