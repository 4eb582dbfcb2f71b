/**
 * `repkit/tdmrep`: W3C TDMRep (`tdmrep.json`, `tdm-reservation` headers and meta tags).
 *
 * @module repkit/tdmrep
 */
export {
  parseTdmrep,
  readTdmReservation,
  resolveTdm,
  MAX_TDMREP_RULES,
  type TdmAnswer,
  type TdmSource,
  type TdmrepRuleSource,
  type TdmStatement,
  type TdmrepFile,
  type TdmrepRule,
  type TdmReservation,
} from './tdmrep/tdmrep.ts';
