/**
 * A copy of the repository with a team's type added ({@link createTeamTypeCopy}) for the calling test file:
 * made before its tests, removed after them. The object answered stands for the copy of the run.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTeamTypeCopy, type TeamTypeCopy } from './team-type-copy.ts';

export function useTeamTypeCopy(): TeamTypeCopy {
  let copy: TeamTypeCopy | undefined;
  const made = (): TeamTypeCopy => {
    if (copy === undefined) throw new Error('the team-type copy is not made yet');
    return copy;
  };
  beforeAll(() => {
    copy = createTeamTypeCopy();
  });
  afterAll(() => {
    copy?.remove();
  });
  return {
    get dir() {
      return made().dir;
    },
    run: (args, timeoutMillis) => made().run(args, timeoutMillis),
    remove: () => {
      made().remove();
    },
  };
}
