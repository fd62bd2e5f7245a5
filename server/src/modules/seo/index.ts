/**
 * The seo module's front door. Other modules use nothing of it: the composition root
 * (server/src/services.ts) wires it to the modules it serves.
 */
export {};
