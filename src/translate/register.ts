/** Installs cross-protocol chat translation into the runtime's handler plan (imported once at start). */
import { defineTranslators } from '../runtime/plan.ts';
import { getTranslator } from './index.ts';

defineTranslators(getTranslator);
