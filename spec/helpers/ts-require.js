'use strict';
/**
 * Lets a child process require the specs' TypeScript (and lib/ from its sources) as Jest does:
 * each .ts file is transpiled when it is first required, without a type check (npm run typecheck
 * does that). Required by the entry of a service a survival spec runs in a process of its own.
 */
const { readFileSync } = require('fs');
const ts = require('typescript');

const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false };

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions });
  module._compile(outputText, filename);
};
