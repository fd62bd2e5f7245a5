/**
 * The api-keys module's front door. Other modules use nothing of it: the composition root
 * (server/src/services.ts) wires it in, and the gateway hands it the requests signed with a key.
 */
export {};
