// --target as users type it: a URL is normalised, anything else is a usage error that says
// what to type instead.
import { expect, test } from '@playwright/test';
import { HarnessError } from '../core/errors.js';
import { normaliseTarget } from './service-target.js';

const refusal = (target: string) => {
  try {
    normaliseTarget(target);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error(`${target} was accepted`);
};

test('an http(s) URL is kept, without its trailing slashes', () => {
  expect(normaliseTarget('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
  expect(normaliseTarget('https://impl.example/api//')).toBe('https://impl.example/api');
});

test('a host and port without a scheme is refused with the URL to type instead', () => {
  expect(refusal('localhost:8080')).toBe('--target localhost:8080 has no scheme: give a URL such as http://localhost:8080');
  expect(refusal('127.0.0.1:8080')).toBe('--target 127.0.0.1:8080 has no scheme: give a URL such as http://127.0.0.1:8080');
});

test('another scheme, or no URL at all, is refused naming what was given', () => {
  expect(refusal('ftp://impl.example')).toBe('--target ftp://impl.example must be an http:// or https:// URL');
  expect(refusal('http://[::1')).toBe('--target http://[::1 is not a URL');
});
