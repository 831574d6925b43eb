/**
 * vitest setupFiles, in every test file: every fast-check property of the run draws from one
 * seed (tests/helpers/fc-seed.ts), printed once by the global setup below.
 */
import fc from 'fast-check';
import { fcSeed } from '../helpers/fc-seed.ts';

fc.configureGlobal({ seed: fcSeed() });
