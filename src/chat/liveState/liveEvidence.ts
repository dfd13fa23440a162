/**
 * Live items as evidence: the same `EvidenceInput` retrieved chunks are, marked `origin: 'live'`
 * and labelled with their citation (`Problems: src/billing.ts:2`, `git diff src/config.ts`), so
 * they share the prompt's budget and its untrusted-data envelope (src/generation/promptAssembly.ts).
 * The one adaptation point to the typed evidence item of #17 when it lands.
 */
import type { EvidenceInput } from '../../generation/promptAssembly';
import type { LiveItem } from './liveStatePorts';

/** A live item as prompt evidence (tier `workspace`: it is the workspace's state, read now). */
export function liveEvidence(item: LiveItem): EvidenceInput {
	return { tier: 'workspace', origin: 'live', path: item.path, startLine: item.startLine, endLine: item.endLine, symbol: null, text: item.text, label: item.citation };
}
