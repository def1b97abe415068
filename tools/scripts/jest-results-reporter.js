// Jest reporter: writes each project's totals to reports/jest/<project>.json so that
// `npm test` can print one summary line for the whole workspace.
const fs = require('node:fs');
const path = require('node:path');

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
      // aggregated `success` is not final yet when reporters run, so derive it
      success: results.numFailedTests === 0 && failedSuites === 0 && results.numTotalTestSuites > 0,
    };
    fs.writeFileSync(path.join(dir, `${project}.json`), JSON.stringify(summary));
  }
}

module.exports = ResultsFileReporter;
