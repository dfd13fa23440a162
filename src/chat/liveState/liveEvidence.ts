/**
 * Live items as evidence: the same `EvidenceItem` retrieved chunks are, with source `live` and
 * their citation as label (`Problems: src/billing.ts:2`, `git diff src/config.ts`), so they share
 * the prompt's budget and its untrusted-data envelope (src/generation/promptAssembly.ts quotes them
 * as `tier="live"`).
 */
import type { EvidenceItem } from '../../core/evidence';
import type { LiveItem } from './liveStatePorts';

/** A live item as prompt evidence. */
export function liveEvidence(item: LiveItem): EvidenceItem {
	return {
		source: 'live',
		path: item.path,
		startLine: item.startLine,
		endLine: item.endLine,
		symbol: null,
		text: item.text,
		citation: item.citation,
	};
}
