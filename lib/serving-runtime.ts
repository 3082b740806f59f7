// How a process that serves HTTP (the reference service, the proxy) sets up V8.
//
// Decision: allocation-site pretenuring is turned off. V8 watches whether the objects made at
// each allocation site survive young-generation collections and, when they do, makes that
// site allocate straight into the old generation. In a server, sites shared by start-up
// (long-lived objects) and by requests (objects dead within a millisecond) can tip into that
// state in the first seconds, and then stay there: measured on the reference under wrk, half
// the runs (4 of 8) had every scavenge promote ~3 MB and take 3-4 ms instead of ~0.8, the old
// generation fill every ~0.7 s, and 10-25 % fewer requests per second; with the flag, 14 of 14
// runs were in the good state (node --trace-gc; the flag set at start or, as here, once the
// service is made). A process-wide V8 flag, so it is set once and left set.
import v8 from 'node:v8';

let tuned = false;

export function tuneForServing(): void {
  if (tuned) return;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  tuned = true;
}
