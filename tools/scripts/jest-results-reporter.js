// Jest reporter: writes each project's totals to reports/jest/<project>.json so that
// `npm test` can print one summary line for the whole workspace.
const fs = require('node:fs');
const path = require('node:path');

const ANSI = /\u001b\[[0-9;]*m/g;
/** The message's first lines without the stack, e.g. "expect(received).toBe(expected) | Expected: 200 | Received: 503". */
const gist = (text) =>
  (text ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '))
    .slice(0, 4)
    .join(' | ')
    .slice(0, 300);

/** Which tests failed and why, one line each, so that a CI log's tail names them. */
function failuresOf(results) {
  return results.testResults.flatMap((file) => {
    const where = path.relative(path.join(__dirname, '..', '..'), file.testFilePath);
    if (file.testExecError || (file.failureMessage && file.numFailingTests === 0)) {
      return [{ where, test: '(the file failed outside its tests: set-up, hooks or compilation)', why: gist(file.testExecError?.message ?? file.failureMessage) }];
    }
    return file.testResults
      .filter((t) => t.status === 'failed')
      .map((t) => ({ where, test: t.fullName.slice(0, 160), why: gist(t.failureMessages.join('\n')) }));
  });
}

class ResultsFileReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(_contexts, results) {
    const project = this.globalConfig.projects?.length === 1 ? path.basename(this.globalConfig.projects[0]) : path.basename(this.globalConfig.rootDir);
    const dir = path.join(__dirname, '..', '..', 'reports', 'jest');
    fs.mkdirSync(dir, { recursive: true });
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const summary = {
      project,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      failedSuites,
      failures: failuresOf(results),
      // aggregated `success` is not final yet when reporters run, so derive it
      success: results.numFailedTests === 0 && failedSuites === 0 && results.numTotalTestSuites > 0,
    };
    fs.writeFileSync(path.join(dir, `${project}.json`), JSON.stringify(summary));
  }
}

module.exports = ResultsFileReporter;
