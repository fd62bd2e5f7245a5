import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { nextTask } from './app/next-task';

/**
 * The app's code is evaluated in stages, each in a task of its own: React, then Apollo, then the
 * app with Blueprint and the router (app/start.tsx). Evaluated all at once it is one long task,
 * during which a phone can neither paint nor answer a tap. The chunks of every stage are fetched
 * together with this one (preloaded with the page, see gateway/src/page-chunks.ts).
 */
async function start(): Promise<void> {
  await import('react-dom/client');
  await nextTask();
  await import('./apollo/client');
  await nextTask();
  const { startApp } = await import('./app/start');
  await startApp();
}

void start().catch((error: unknown) => {
  console.error('The shop could not start', error);
});
