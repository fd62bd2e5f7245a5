/**
 * The entry point (`npm run serve`, `npm start`). Node's compile cache keeps the compiled code of
 * every module on disk, so that a restart or another process skips most of the parse and compile
 * work of its start; it is turned on before anything else is loaded.
 */
import module from 'node:module';

try {
  module.enableCompileCache?.();
} catch {
  // A read-only or full temporary directory only costs speed.
}
await import('./run.js');
