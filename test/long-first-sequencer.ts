import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order, but the package tier first. On a fresh clone Vitest knows no durations and runs
 * larger files first; the package tier's one small file (`npm pack`, a scaffold and an install
 * that builds the SQLite driver: over a minute) then started last and ran alone on one of the two
 * workers at the end of the run. Started first, it runs beside the rest.
 */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (f.project.name === 'package' ? 0 : 1);
    // Array#sort is stable: within each rank Vitest's own order stays.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
