/** Blueprint's Alert alone, for LazyAlert to load. */
export { Alert as default } from '@blueprintjs/core';
