import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

/**
 * Ends a run with its slowest files: where the suite's minutes go. A file's time is all of it: its
 * worker's harness, importing it (and what it imports), its hooks (an app booted in `beforeAll`
 * counts) and its tests.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((module) => {
        const d = module.diagnostic();
        return { file: module.relativeModuleId, project: module.project.name, seconds: (d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration) / 1000, tests: [...module.children.allTests()].length };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (!rows.length) return;
    const total = rows.reduce((sum, row) => sum + row.seconds, 0);
    const lines = rows.slice(0, SHOWN).map((row) => `${row.seconds.toFixed(1).padStart(7)} s  ${String(row.tests).padStart(3)} tests  ${row.file}`);
    const projects = new Map<string, { seconds: number; files: number }>();
    for (const row of rows) {
      const project = projects.get(row.project) ?? { seconds: 0, files: 0 };
      projects.set(row.project, { seconds: project.seconds + row.seconds, files: project.files + 1 });
    }
    const byProject = [...projects].map(([name, p]) => `${name} ${p.seconds.toFixed(0)} s (${p.files} files)`).join(', ');
    process.stdout.write(`\nThe ${Math.min(SHOWN, rows.length)} slowest of ${rows.length} files (${total.toFixed(0)} s of file time in all: ${byProject}):\n${lines.join('\n')}\n`);
  }
}
