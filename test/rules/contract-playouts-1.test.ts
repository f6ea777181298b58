// Part 1 of the rules contract's seeded playouts (test/rules/contract.ts).
import { playoutSuite } from './contract.ts';

playoutSuite(1);
