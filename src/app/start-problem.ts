/** A start-up failure whose message is already the one line to print (`src/main.ts` prints it and exits 1). */
export class StartProblem extends Error {
  override readonly name = 'StartProblem';
}
