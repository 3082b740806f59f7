// touchstone's control API (docs/target-contract.md): capabilities, reset, clock.
import { HttpError, readJsonObject, sendEmpty, sendJson } from './http-util.js';
import { isoInstant } from './representations.js';

const CAPABILITIES = ['control.reset', 'control.clock'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function clockAnswer(ctx) {
  sendJson(ctx.req, ctx.res, 200, { now: isoInstant(ctx.store.state.clockMs) });
}

async function setClock(ctx) {
  const body = await readJsonObject(ctx.req);
  const keys = Object.keys(body);
  if (keys.length !== 1 || !['set', 'advance_seconds'].includes(keys[0])) {
    throw new HttpError(422, 'Send exactly one of "set" and "advance_seconds"');
  }
  const state = ctx.store.state;
  if (keys[0] === 'set') {
    const ms = typeof body.set === 'string' && RFC3339.test(body.set) ? Date.parse(body.set) : Number.NaN;
    if (Number.isNaN(ms)) throw new HttpError(422, '"set" must be an RFC 3339 date-time with a time and an offset');
    state.clockMs = ms;
  } else {
    const s = body.advance_seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) {
      throw new HttpError(422, '"advance_seconds" must be a number of seconds, zero or more');
    }
    state.clockMs += Math.round(s * 1000);
  }
  clockAnswer(ctx);
}

async function reset(ctx) {
  await readJsonObject(ctx.req); // no body, or {}
  ctx.store.reset();
  sendEmpty(ctx.req, ctx.res);
}

export const routes = [
  ['GET', '/_conformance/capabilities', (ctx) => sendJson(ctx.req, ctx.res, 200, { capabilities: CAPABILITIES })],
  ['POST', '/_conformance/reset', reset],
  ['GET', '/_conformance/clock', clockAnswer],
  ['POST', '/_conformance/clock', setClock],
];
