/**
 * Child of type-check.ts: what `tsc -p <tsconfig> --noEmit` does (build the program, report its
 * diagnostics), through the compiler API so that the check phase's CPU time can be read on its
 * own: on a machine shared with other work the wall time of a phase mostly measures the wait
 * for a core. Prints one JSON line; exits 1 when the program has a diagnostic.
 */
import ts from 'typescript';

/** Counters the compiler keeps (what `--extendedDiagnostics` prints); not in its public typings. */
interface ProgramCounters {
  getInstantiationCount(): number;
  getTypeCount(): number;
}

const configPath = process.argv[2];
if (configPath === undefined) throw new Error('usage: check-program.ts <tsconfig.json>');
const config = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (config === undefined) throw new Error(`cannot read ${configPath}`);

const started = performance.now();
const program = ts.createProgram(config.fileNames, config.options);
// The checker binds every file when it is made: tsc counts that as bind time, not check time.
program.getTypeChecker();
const beforeCheck = process.cpuUsage();
const checkStarted = performance.now();
const diagnostics = ts.getPreEmitDiagnostics(program);
const checkCpu = process.cpuUsage(beforeCheck);
const finished = performance.now();

if (diagnostics.length > 0) {
  console.error(ts.formatDiagnostics(diagnostics, { ...ts.sys, getCanonicalFileName: (name) => name, getNewLine: () => '\n' }));
  process.exit(1);
}
const counters = program as unknown as ProgramCounters;
console.log(
  JSON.stringify({
    wallMs: finished - started,
    checkWallMs: finished - checkStarted,
    checkCpuMs: (checkCpu.user + checkCpu.system) / 1000,
    instantiations: counters.getInstantiationCount(),
    types: counters.getTypeCount(),
    memoryMb: process.memoryUsage().heapUsed / 1024 / 1024,
  }),
);
