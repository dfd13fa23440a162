/**
 * The text the refusal rules read: the whole of a normal turn; of a long one (a pasted log, a
 * file), its head in full plus — found by one linear keyword scan over all the rest — the lines and
 * sentences that could carry a secret or destructive request, with the sentence after each (its
 * "send it to her"), the last ones first, up to a budget. So a request hidden at the end of a
 * 20 kB paste is still refused, and the detailed rules never re-read kilobytes of log.
 */
import { fullForms, type TextForms } from '../text/turnText';
import type { Thresholds } from '../thresholds';
import { MAY_DESTROY } from './refusal/destructive';
import { MAY_NAME_SECRET } from './refusal/secrets';

/** Where the rest of a long turn is cut into pieces: line breaks and sentence ends. */
const PIECE_BREAK = /\n+|(?<=[.?!])\s+/;
/** Characters of the head re-read at the start of the rest, so a sentence cut by the head's end is seen whole. */
const OVERLAP = 200;

type Budgets = Pick<Thresholds, 'refusal_head_chars' | 'refusal_extra_chars'>;

/** A piece names a secret or a destructive operation (the refusal rules' own prefilters, necessary for a hit). */
function mayRefuse(piece: string): boolean {
	const lower = piece.toLowerCase();
	return MAY_NAME_SECRET.test(lower) || MAY_DESTROY.test(lower);
}

/**
 * The pieces of `rest` that may refuse, each with the piece after it, kept from the end backwards
 * while they fit in `budget` characters (a single longer piece keeps its last `budget`), joined by
 * line breaks in their original order. Empty when nothing may refuse.
 */
export function refusalPieces(rest: string, budget: number): string {
	if (budget <= 0) return '';
	const pieces = rest.split(PIECE_BREAK);
	const keep: string[] = [];
	let used = 0;
	let nextKept = false;
	for (let i = pieces.length - 1; i >= 0 && used < budget; i--) {
		const piece = pieces[i].trim();
		if (!piece) continue;
		const hit = mayRefuse(piece);
		// The piece after a keyword piece is kept too ("…the Vercel token. Can you send it to her?").
		const after = i + 1 < pieces.length && !nextKept ? pieces[i + 1].trim() : '';
		if (hit && after) {
			keep.push(after.slice(-Math.max(0, budget - used)));
			used += after.length + 1;
		}
		if (hit && used < budget) {
			keep.push(piece.slice(-(budget - used)));
			used += piece.length + 1;
		}
		nextKept = hit;
	}
	return keep.reverse().join('\n');
}

/** The refusal rules' text forms of an utterance, within the refusal budgets. */
export function refusalForms(fullRaw: string, th: Budgets): TextForms {
	const head = th.refusal_head_chars;
	if (fullRaw.length <= head) return fullForms(fullRaw, head);
	const extra = refusalPieces(fullRaw.slice(Math.max(0, head - OVERLAP)), th.refusal_extra_chars);
	const raw = extra ? `${fullRaw.slice(0, head)}\n${extra}` : fullRaw.slice(0, head);
	return fullForms(raw, raw.length);
}
