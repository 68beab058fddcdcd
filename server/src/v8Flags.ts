import { setFlagsFromString } from 'node:v8';

// V8 moves the objects made where allocations often outlived a young-generation collection straight
// into the old generation from then on ("allocation-site pretenuring"). A burst of slow requests (sign-ups
// hashing passwords while the embedded database writes on this thread) kept the request path's own
// objects alive long enough to make V8 decide so for them; from then on every request's short-lived
// objects went to the old generation: young collections took 3 to 6 ms instead of 0.5, the heap grew by
// about 2.5 MB between them, and a kept current-user call took twice the CPU (measured on PGlite, 1,000
// sessions: 44 to 68 µs of the thread a request, 32 to 37 without it). Set before the first request.
setFlagsFromString('--no-allocation-site-pretenuring');
