import { executionAsyncResource } from 'node:async_hooks';

/**
 * One of the objects `process.nextTick` queues (every answer queues several), held for the life of the
 * process. V8 keeps the hidden classes an object literal's properties step through only while some
 * object has them, and the site of a computed key in a literal (the tick object's first two) knows one
 * class or any: at the first object of another class it turns megamorphic for good, and the compiled
 * literal then calls V8's runtime for each property. A full collection that found no tick object alive
 * dropped the classes the site had seen, and the next tick objects got new ones: on PGlite the libraries'
 * and the embedded database's loading run a dozen such collections, and a kept current-user call spent
 * 6–8% of its CPU in that runtime call (found with callgrind and perf; a server portal with a dozen
 * collections forced at its start did the same). Taken before any library loads (see main.ts), as the
 * resource of a tick's own callback: an async hook would hand it out too, but enabling one, even for a
 * moment, switches off for good V8's inlining of promise operations.
 */
export const keptTickObject: object = await new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
